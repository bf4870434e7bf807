package import DocSyncSupport

#if canImport(Glibc)
    import Glibc
#endif

/// `mkdir -p` through directory descriptors: each missing component is created with `mkdirat` (0755 before the
/// umask) and opened with `O_NOFOLLOW`, so nothing docsync creates is reached through a symlink. Components that
/// already exist are the operator's and are used as they are.
package enum DirectoryMaker {
    /// Makes sure the absolute `path` is a directory, creating what is missing.
    package static func ensure(_ path: String) throws(SystemError) {
        guard path.hasPrefix("/") else { throw SystemError("mkdir", path: path, code: EINVAL) }
        var fd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw SystemError("open", path: "/") }
        defer { close(fd) }
        var walked = ""
        var creating = false
        for component in path.split(separator: "/").map(String.init) where component != "." {
            walked += "/\(component)"
            var next: Int32 = -1
            if !creating {
                next = openat(fd, component, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                if next < 0 && errno != ENOENT { throw SystemError("open", path: walked) }
            }
            if next < 0 {
                if mkdirat(fd, component, 0o755) != 0 && errno != EEXIST { throw SystemError("mkdir", path: walked) }
                creating = true
                next = openat(fd, component, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                if next < 0 { throw SystemError("open", path: walked) }
            }
            close(fd)
            fd = next
        }
    }
}
