import DocSyncSupport

#if canImport(Glibc)
    import Glibc
#endif

/// SHA-256 of a whole file, for the one case that needs a second pass: checking a destination left by a run that
/// was killed during finalize.
enum FileDigest {
    static func sha256(of path: String) throws(SystemError) -> SHA256.Digest {
        guard let fd = try RegularFile.open(path, followSymlink: true)?.fd else {
            throw SystemError("open", path: path, code: ENOENT)
        }
        defer { close(fd) }
        var hasher = SHA256()
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw SystemError("read", path: path)
            }
            if n == 0 { return hasher.finalize() }
            buffer.withUnsafeBytes { hasher.update(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
        }
    }
}
