import DocSyncSupport

#if canImport(Glibc)
    import Glibc
#endif

extension Installer {
    /// Compares the installed versions of `names` (empty: every `*.docset` in the root) with the manifests recorded
    /// at install: paths, sizes and SHA-256 of every file. Reads only; takes no lock (versions are immutable).
    package func verify(names: [String] = []) async throws(InstallError) -> [DocsetVerification] {
        try await onThread("docsync-verify") { () throws(InstallError) in try self.verifyBlocking(names) }
    }

    /// The paths every reader needs in a docset (Zeal will not load one without its `Info.plist` and index); a
    /// path the install did not create (`Documents` in the tarix layout, the tarix store in the extracted one) is
    /// not looked for.
    package static let essentialPaths = [
        "Contents/Info.plist", "Contents/Resources/docSet.dsidx", "Contents/Resources/Documents", "meta.json",
        "Contents/Resources/tarix.tgz", "Contents/Resources/tarixIndex.db",
    ]

    /// The cheap check `sync` makes of docsets it leaves unchanged: each of ``essentialPaths`` the manifest recorded
    /// at install must still be there with the same kind and, for a file, the same size. One `lstat` per path, no
    /// hashing (``verify(names:)`` hashes every file). Reads only; takes no lock.
    package func checkEssentials(names: [String]) async throws(InstallError) -> [DocsetVerification] {
        try await onThread("docsync-check") { () throws(InstallError) in
            let store = try VersionStore(root: self.root)
            return names.map { name in self.checkEssentials(name, in: store) }
        }
    }

    private func checkEssentials(_ name: String, in store: VersionStore) -> DocsetVerification {
        guard let version = store.currentVersion(of: name) else {
            return DocsetVerification(name: name, path: nil, status: .unverifiable("not installed by docsync"))
        }
        let path = "\(root)/\(VersionStore.stateName)/versions/\(version)"
        guard let expected = store.manifest(of: version, only: Self.essentialPaths) else {
            return DocsetVerification(name: name, path: path, status: .unverifiable("no manifest"))
        }
        guard let folder = try? store.versions.base.existingDirectory(version) else {
            return DocsetVerification(name: name, path: path, status: .damaged(["version folder \(path) is missing"]))
        }
        var problems: [String] = []
        var folders: [Substring: Bool] = [:]
        for essential in Self.essentialPaths {
            guard let entry = expected.entries[essential] else { continue }
            let found = Self.status(of: essential, in: folder, folders: &folders)
            switch (entry, found.map { $0.st_mode & S_IFMT }) {
            case (_, nil): problems.append("missing \(essential)")
            case (.file(let size, _), S_IFREG?):
                if let found, Int64(found.st_size) != size {
                    problems.append("changed \(essential) (size \(size) → \(found.st_size))")
                }
            case (.directory, S_IFDIR?), (.symlink, S_IFLNK?): break
            default: problems.append("changed \(essential) (type)")
            }
        }
        return DocsetVerification(name: name, path: path, status: problems.isEmpty ? .intact : .damaged(problems))
    }

    /// lstat of `path` below `folder`: one `fstatat` relative to the version's descriptor, after each folder on the
    /// way was found to be a real folder, not a link (`fstatat` without following it; remembered in `folders` for the
    /// docset's other paths). nil when any part is missing or a folder on the way is not a folder.
    static func status(of path: String, in folder: SafeDirectory, folders: inout [Substring: Bool]) -> stat? {
        var end = path.startIndex
        while let slash = path[end...].firstIndex(of: "/") {
            let parent = path[..<slash]
            let isFolder: Bool
            if let known = folders[parent] {
                isFolder = known
            } else {
                isFolder = folder.status(String(parent)).map { $0.st_mode & S_IFMT == S_IFDIR } ?? false
                folders[parent] = isFolder
            }
            guard isFolder else { return nil }
            end = path.index(after: slash)
        }
        return folder.status(path)
    }

    private func verifyBlocking(_ names: [String]) throws(InstallError) -> [DocsetVerification] {
        for name in names {
            if let problem = InstallRequest.problem(with: name) { throw .invalidName(name, reason: problem) }
        }
        let store = try VersionStore(root: root)
        var wanted = names
        if wanted.isEmpty {
            wanted = try store.root.entries().map(\.name)
                .filter { $0.hasSuffix(".docset") && !$0.hasPrefix(".") }
                .map { String($0.dropLast(".docset".count)) }.sorted()
        }
        return try wanted.map { name throws(InstallError) in try verify(name, in: store) }
    }

    private func verify(_ name: String, in store: VersionStore) throws(InstallError) -> DocsetVerification {
        let linkName = VersionStore.linkName(name)
        guard let st = try store.root.status(linkName) else {
            return DocsetVerification(name: name, path: nil, status: .unverifiable("not installed"))
        }
        guard st.st_mode & S_IFMT == S_IFLNK, let version = store.currentVersion(of: name) else {
            return DocsetVerification(
                name: name, path: "\(root)/\(linkName)", status: .unverifiable("not installed by docsync"))
        }
        let path = "\(root)/\(VersionStore.stateName)/versions/\(version)"
        guard let expected = store.manifest(of: version) else {
            return DocsetVerification(
                name: name, path: path,
                status: .unverifiable("no manifest (installed before docsync recorded them; a repair skips it)"))
        }
        let folder: SafeDirectory
        do {
            guard let found = try store.versions.base.existingDirectory(version) else {
                return DocsetVerification(
                    name: name, path: path, status: .damaged(["version folder \(path) is missing"]))
            }
            folder = found
        } catch {
            throw .io(error)
        }
        let actual: TreeManifest
        do { actual = try TreeManifest.build(folder) } catch { throw .io(error) }
        let problems = expected.differences(from: actual)
        return DocsetVerification(name: name, path: path, status: problems.isEmpty ? .intact : .damaged(problems))
    }
}
