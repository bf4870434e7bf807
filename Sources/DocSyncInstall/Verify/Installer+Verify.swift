import DocSyncSupport

#if canImport(Glibc)
    import Glibc
#endif

extension Installer {
    /// Compares the installed versions of `names` (empty: every `*.docset` in the root) with the manifests recorded
    /// at install: paths, sizes and SHA-256 of every file. Reads only; takes no lock (versions are immutable).
    public func verify(names: [String] = []) async throws(InstallError) -> [DocsetVerification] {
        try await onThread("docsync-verify") { () throws(InstallError) in try self.verifyBlocking(names) }
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
                status: .unverifiable("no manifest (installed before docsync recorded them; `sync --repair` skips it)"))
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
