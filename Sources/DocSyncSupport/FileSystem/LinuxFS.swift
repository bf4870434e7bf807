import CDocSyncSys

#if canImport(Glibc)
    import Glibc
#endif

/// The Linux file-system calls Swift's Glibc module lacks, and the durable-write steps built on them.
/// With `SafeDirectory`, the only user of `CDocSyncSys`'s system calls.
package enum LinuxFS {
    package enum RenameMode: Sendable {
        case replace, exchange, noReplace

        var flags: UInt32 {
            switch self {
            case .replace: 0
            case .exchange: DS_RENAME_EXCHANGE
            case .noReplace: DS_RENAME_NOREPLACE
            }
        }
    }

    /// Writes all of `bytes` to `fd`: a short write is continued, `EINTR` retried; `path` names the file in the error.
    /// The one write loop of docsync's own files (journals, documents, metrics, indexes, copies).
    package static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws(SystemError) {
        guard let base = bytes.baseAddress else { return }
        var done = 0
        while done < bytes.count {
            let n = Glibc.write(fd, base + done, bytes.count - done)
            if n < 0, errno == EINTR { continue }
            if n <= 0 { throw SystemError("write", path: path, code: n < 0 ? errno : EIO) }
            done += n
        }
    }

    /// `writeAll` of an array's bytes.
    package static func writeAll(_ fd: Int32, _ bytes: [UInt8], path: String) throws(SystemError) {
        var failure: SystemError?
        bytes.withUnsafeBytes { raw in
            do throws(SystemError) { try writeAll(fd, raw, path: path) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// `renameat2(2)`. `.exchange` swaps two existing entries atomically; EINVAL means the file system lacks it.
    package static func rename(
        from: String, in fromDir: Int32 = AT_FDCWD, to: String, in toDir: Int32 = AT_FDCWD, mode: RenameMode = .replace
    ) throws(SystemError) {
        if ds_renameat2(fromDir, from, toDir, to, mode.flags) != 0 {
            throw SystemError("renameat2", path: "\(from) -> \(to)")
        }
    }

    /// `syncfs(2)`: one flush of the whole file system holding `fd` (much cheaper than an fsync per file).
    package static func syncFileSystem(_ fd: Int32, path: String) throws(SystemError) {
        if ds_syncfs(fd) != 0 { throw SystemError("syncfs", path: path) }
    }

    /// The buffer-address and file-offset alignment direct I/O on `fd` needs (statx `STATX_DIOALIGN`), or nil when
    /// the kernel does not say.
    package static func directIOAlignment(_ fd: Int32) -> Int? {
        let alignment = ds_direct_io_alignment(fd)
        return alignment == 0 ? nil : Int(alignment)
    }

    /// Free bytes and inodes available to an unprivileged writer on the file system holding `path`.
    package static func freeSpace(at path: String) throws(SystemError) -> (bytes: Int64, inodes: Int64) {
        var st = statvfs()
        if statvfs(path, &st) != 0 { throw SystemError("statvfs", path: path) }
        return (Int64(st.f_bavail) * Int64(st.f_frsize), Int64(st.f_favail))
    }
}
