import DocSyncSupport
import Foundation

extension Installer {
    /// Converts the installed docset `name` to `layout` through the normal atomic install path, without
    /// downloading it: tarix → extracted installs the version's own `tarix.tgz`; extracted → tarix first packs the
    /// version's tree (without `meta.json`, which the install writes again) into a gzip'd tar in `scratch` (a
    /// folder of docsync's own, outside the root), then installs that with the tarix layout (re-encoded once).
    /// `meta.json`'s members, the host record and the publisher's `archive_sha256` are carried over. Returns nil
    /// when the docset already has `layout`.
    package func relayout(name: String, to layout: InstallLayout, scratch: String) async throws(InstallError)
        -> InstallRecord?
    {
        guard let current = try installedDocsets().first(where: { $0.name == name }) else {
            throw .notInstalled(name)
        }
        guard current.layout != layout else { return nil }
        let (found, folder) = try reinstallRequest(current)
        var request = found
        request.layout = layout
        switch layout {
        case .extracted:
            return try await install(archive: "\(current.path)/Contents/Resources/tarix.tgz", as: request)
        case .tarix:
            let packed = "\(scratch)/relayout-\(VersionStore.versionName(for: name)).tgz"
            try await onThread("docsync-relayout") { () throws(InstallError) in
                try Self.pack(folder, as: "\(name).docset", to: packed)
            }
            defer { unlink(packed) }
            return try await install(archive: packed, as: request)
        }
    }

    /// The request that installs the version `current` again with the same `meta.json` members, host record and
    /// publisher's `archive_sha256`, and its folder (to pack).
    func reinstallRequest(_ current: InstallRecord) throws(InstallError) -> (InstallRequest, SafeDirectory) {
        let folder: SafeDirectory
        do { folder = try SafeDirectory.open(current.path) } catch { throw .io(error) }
        guard let bytes = try? folder.readFile(DocsetMetadata.fileName, limit: 1 << 20).flatMap({ $0 }),
            let meta = DocsetMetadata.decode(bytes)
        else { throw .unreadableDocset("\(current.path)/meta.json: missing or unreadable; reinstall it instead") }
        let record = meta.extra?.docsync
        var request = InstallRequest(
            name: current.name, title: meta.title, version: record?.version ?? meta.version,
            revision: record?.revision ?? meta.revision, feedURL: current.feedURL, urls: current.urls,
            identifier: record?.identifier, sourceURL: current.sourceURL, archiveSHA256: record?.archiveSHA256,
            updated: current.updated)
        request.arrival = Self.arrival(meta)
        request.extra = meta.extra?.catalog ?? [:]
        request.layout = current.layout
        return (request, folder)
    }

    /// Writes the tree below `folder` as a gzip'd pax archive under `top/` (links kept as links, `meta.json` left
    /// out), one file in memory at a time.
    static func pack(_ folder: SafeDirectory, as top: String, to path: String) throws(InstallError) {
        let writer: ArchiveWriter
        do { writer = try ArchiveWriter(path: path, format: .pax, filter: .gzip) } catch {
            throw .unreadableArchive("packing \(path): \(error.message)")
        }
        var failure: InstallError?
        func add(_ entry: ArchiveWriter.Entry) {
            guard failure == nil else { return }
            do throws(ArchiveFailure) { try writer.add(entry) } catch {
                failure = .unreadableArchive("packing \(entry.path): \(error.message)")
            }
        }
        add(.directory(top))
        do {
            try folder.walk { entry throws(SystemError) in
                guard failure == nil, entry.path != DocsetMetadata.fileName else { return }
                let archived = "\(top)/\(entry.path)"
                let mode = UInt32(entry.status.st_mode & 0o777)
                if entry.isDirectory {
                    add(ArchiveWriter.Entry(archived, .directory, permissions: 0o755))
                } else if entry.isSymlink {
                    var target = [CChar](repeating: 0, count: 4097)
                    let n = readlinkat(entry.parent.fd, entry.name, &target, 4096)
                    guard n >= 0 else { throw SystemError("readlinkat", path: entry.parent.childPath(entry.name)) }
                    let text = String(decoding: target[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
                    add(ArchiveWriter.Entry(archived, .symlink(target: text)))
                } else if entry.isRegular {
                    let data = try entry.parent.readFile(entry.name, limit: 1 << 30) ?? []
                    add(ArchiveWriter.Entry(archived, .file(data: data), permissions: mode | 0o200))
                }
            }
        } catch {
            throw .io(error)
        }
        if let failure { throw failure }
        do { try writer.close() } catch { throw .unreadableArchive("packing \(path): \(error.message)") }
    }
}
