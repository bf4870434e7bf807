#if canImport(Glibc)
    import Glibc
#endif

extension SafeDirectory {
    /// One entry met by `walk`: its path relative to the walked folder, its lstat, and the folder holding it.
    package struct WalkEntry {
        package var path: String
        package var name: String
        package var status: stat
        package var parent: SafeDirectory

        package var isDirectory: Bool { status.st_mode & S_IFMT == S_IFDIR }
        package var isRegular: Bool { status.st_mode & S_IFMT == S_IFREG }
        package var isSymlink: Bool { status.st_mode & S_IFMT == S_IFLNK }
    }

    /// Visits every entry below this folder depth first, in name order (stable across runs), without following a
    /// symlink: sub-folders are opened with `O_NOFOLLOW` relative to their parent's descriptor.
    package func walk(_ visit: (WalkEntry) throws(SystemError) -> Void) throws(SystemError) {
        try walk(prefix: "", visit)
    }

    private func walk(prefix: String, _ visit: (WalkEntry) throws(SystemError) -> Void) throws(SystemError) {
        for entry in try entries().sorted(by: { $0.name < $1.name }) {
            guard let st = status(entry.name) else { continue }
            let item = WalkEntry(path: prefix + entry.name, name: entry.name, status: st, parent: self)
            try visit(item)
            if item.isDirectory { try directory(entry.name).walk(prefix: item.path + "/", visit) }
        }
    }

    /// Bytes allocated below this folder (what deleting it would give back), counted without following links.
    package func allocatedBytes() -> Int64 {
        var total: Int64 = 0
        try? walk { entry in total += Int64(entry.status.st_blocks) * 512 }
        return total
    }

    /// The SHA-256 (hex) and length of the regular file `name`, read through a descriptor opened `O_NOFOLLOW`.
    package func digest(of name: String) throws(SystemError) -> (sha256: String, size: Int64) {
        guard let file = try openRegularFile(name)?.fd else {
            throw SystemError("open", path: childPath(name), code: ENOENT)
        }
        defer { close(file) }
        var hash = SHA256()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        var size: Int64 = 0
        while true {
            let n = read(file, buffer.baseAddress, buffer.count)
            if n < 0, errno == EINTR { continue }
            if n < 0 { throw SystemError("read", path: childPath(name)) }
            if n == 0 { break }
            hash.update(UnsafeRawBufferPointer(rebasing: buffer[..<n]))
            size += Int64(n)
        }
        return (hash.finalize().description, size)
    }
}
