import DocSyncSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A folder of the mirror's tree, reached through DocSyncSupport's `SafeDirectory` (directory descriptors,
/// `O_NOFOLLOW`: a symlink planted in the tree is refused, never followed), plus what only the mirror does: placing
/// an archive by hard link or copy.
final class MirrorDirectory {
    let safe: SafeDirectory
    var fd: Int32 { safe.fd }
    var path: String { safe.path }

    /// Opens (creating it and its parents when asked) the mirror's base folder.
    init(path: String, create: Bool = false) throws(MirrorError) {
        do { safe = try SafeDirectory.open(path, create: create) } catch { throw .system(error) }
    }

    private init(_ safe: SafeDirectory) { self.safe = safe }

    /// A child directory (created when `create`), never through a symlink.
    func directory(_ name: String, create: Bool = true) throws(MirrorError) -> MirrorDirectory {
        do { return MirrorDirectory(try safe.directory(name, create: create)) } catch { throw .system(error) }
    }

    func at(_ name: String) -> String { safe.childPath(name) }

    /// Entry names (no `.`/`..`); empty when the folder cannot be listed.
    func entries() -> [String] { ((try? safe.entries()) ?? []).map(\.name) }

    /// The size of a regular file here, nil when absent or not a regular file.
    func fileSize(_ name: String) -> Int64? {
        guard let st = safe.status(name), (st.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int64(st.st_size)
    }

    func sync() throws(MirrorError) {
        do { try safe.sync() } catch { throw .system(error) }
    }

    /// Replaces `name` by a temporary file fsynced and renamed over it: a reader sees the old file or the new one.
    func replaceFile(_ name: String, _ bytes: [UInt8], mode: mode_t = 0o644) throws(MirrorError) {
        do { try safe.writeFileAtomically(name, bytes, mode: mode) } catch { throw .system(error) }
    }

    /// As `replaceFile`, but leaves a file with the same bytes alone: a publish that changes nothing keeps every
    /// document's mtime, so clients' and caches' conditional requests get 304s.
    func replaceFileIfChanged(_ name: String, _ bytes: [UInt8]) throws(MirrorError) {
        if let current = try? safe.readFile(name, limit: bytes.count + 1), current == bytes { return }
        try replaceFile(name, bytes)
    }

    /// Puts the file at `source` here as `name`, durably: a hard link when both are on one file system (no second
    /// copy), a copy otherwise; fsynced under a temporary name, then renamed into place.
    func place(_ name: String, from source: String) throws(MirrorError) {
        let temporary = ".\(name).tmp"
        _ = unlinkat(fd, temporary, 0)
        if linkat(AT_FDCWD, source, fd, temporary, 0) != 0 {
            guard errno == EXDEV || errno == EPERM || errno == EMLINK else {
                throw .system(SystemError("linkat", path: "\(source) -> \(at(temporary))"))
            }
            try copy(from: source, to: temporary)
        }
        do throws(SystemError) {
            let file = try safe.openFile(temporary, O_RDONLY)
            defer { close(file) }
            if fsync(file) != 0 { throw SystemError("fsync", path: at(temporary)) }
            try safe.rename(temporary, to: safe, as: name)
        } catch {
            throw .system(error)
        }
    }

    private func copy(from source: String, to name: String) throws(MirrorError) {
        let opened: (fd: Int32, size: Int64)?
        do throws(SystemError) { opened = try RegularFile.open(source, followSymlink: true) } catch {
            throw .system(error)
        }
        guard let input = opened?.fd else { throw .system(SystemError("open", path: source, code: ENOENT)) }
        defer { close(input) }
        let output: Int32
        do { output = try safe.openFile(name, O_WRONLY | O_CREAT | O_EXCL) } catch { throw .system(error) }
        defer { close(output) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count < 0 { throw .system(SystemError("read", path: source)) }
            if count == 0 { return }
            try MirrorBundle.writeAll(output, Array(buffer[0..<count]), at(name))
        }
    }

    /// Removes a file this publisher created (the link itself if one was planted; a missing one is fine).
    func removeFile(_ name: String) throws(MirrorError) {
        do { try safe.unlink(name) } catch { throw .system(error) }
    }

    /// Removes an empty directory (a missing one is fine).
    func removeDirectory(_ name: String) throws(MirrorError) {
        do { try safe.unlink(name, directory: true) } catch { throw .system(error) }
    }
}
