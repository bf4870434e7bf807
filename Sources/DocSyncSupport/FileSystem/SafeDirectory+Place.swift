#if canImport(Glibc)
    import Glibc
#endif

extension SafeDirectory {
    /// The size of the regular file `name` here; nil when it is absent or not a regular file (a symlink included).
    package func regularFileSize(_ name: String) -> Int64? {
        guard let st = status(name), (st.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int64(st.st_size)
    }

    /// As `writeFileAtomically`, but leaves a file with the same bytes alone: a rewrite that changes nothing keeps
    /// the file's mtime, so conditional requests for a served file still get 304s.
    package func replaceFileIfChanged(_ name: String, _ bytes: [UInt8], mode: mode_t = 0o644) throws(SystemError) {
        if let current = try? readFile(name, limit: bytes.count + 1), current == bytes { return }
        try writeFileAtomically(name, bytes, mode: mode)
    }

    /// Puts the file at `source` here as `name`, durably: a hard link when both are on one file system (no second
    /// copy), a copy otherwise; fsynced under a temporary name, then renamed into place.
    package func place(_ name: String, from source: String) throws(SystemError) {
        let temporary = ".\(name).tmp"
        _ = unlinkat(fd, temporary, 0)
        if linkat(AT_FDCWD, source, fd, temporary, 0) != 0 {
            guard errno == EXDEV || errno == EPERM || errno == EMLINK else {
                throw SystemError("linkat", path: "\(source) -> \(childPath(temporary))")
            }
            try copy(from: source, to: temporary)
        }
        let file = try openFile(temporary, O_RDONLY)
        defer { close(file) }
        if fsync(file) != 0 { throw SystemError("fsync", path: childPath(temporary)) }
        try rename(temporary, to: self, as: name)
    }

    private func copy(from source: String, to name: String) throws(SystemError) {
        guard let input = try RegularFile.open(source, followSymlink: true)?.fd else {
            throw SystemError("open", path: source, code: ENOENT)
        }
        defer { close(input) }
        let output = try openFile(name, O_WRONLY | O_CREAT | O_EXCL)
        defer { close(output) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count < 0 { throw SystemError("read", path: source) }
            if count == 0 { return }
            try LinuxFS.writeAll(output, Array(buffer[0..<count]), path: childPath(name))
        }
    }
}
