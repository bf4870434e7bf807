#if canImport(Glibc)
    import Glibc
#endif

/// Makes every regular file of a staged tree read-only (0644 → 0444, 0755 → 0555) before it is published, so that
/// no reader can change an installed version (a reader opening `docSet.dsidx` read-write would otherwise write
/// beside it). Directories keep 0755 so that their owner can still delete the tree (Zeal's "Remove", `rm -r`).
/// Walks through directory descriptors (`O_NOFOLLOW`); symbolic links are left alone.
enum ReadOnlyTree {
    static func apply(_ directory: DirectoryHandle) throws(InstallError) {
        for entry in try directory.entries() {
            var type = entry.type
            if type == DT_UNKNOWN {
                guard let st = try directory.status(entry.name) else { continue }
                type =
                    st.st_mode & S_IFMT == S_IFDIR
                    ? UInt8(DT_DIR) : (st.st_mode & S_IFMT == S_IFREG ? UInt8(DT_REG) : 0)
            }
            if type == DT_DIR {
                try apply(directory.directory(entry.name))
            } else if type == DT_REG {
                guard let st = try directory.status(entry.name), st.st_mode & S_IFMT == S_IFREG else { continue }
                let mode = st.st_mode & 0o7777 & ~0o222
                if fchmodat(directory.fd, entry.name, mode, 0) != 0 { throw directory.error("fchmodat", entry.name) }
            }
        }
    }
}
