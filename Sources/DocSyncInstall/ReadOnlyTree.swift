#if canImport(Glibc)
    import Glibc
#endif

/// Every regular file of a published version is read-only (0444, or 0555 when executable), so that no reader can
/// change an installed version (a reader opening `docSet.dsidx` read-write would otherwise write beside it).
/// Directories keep 0755 so that their owner can still delete the tree (Zeal's "Remove", `rm -r`).
///
/// The writer creates extracted files read-only from the start; only the late files — those the installer may still
/// change after extraction (the index and its SQLite side files, which the tree preparation completes; `meta.json`
/// and icons, which it writes) — are created writable, and `finish` takes write permission from them before the
/// version is published. No walk of the tree is needed.
enum ReadOnlyTree {
    /// The index and the side files SQLite may leave beside it, relative to the docset root.
    static let indexFiles = [
        DocsetValidator.index, "\(DocsetValidator.index)-wal", "\(DocsetValidator.index)-shm",
        "\(DocsetValidator.index)-journal",
    ]
    private static let resources = [Array("Contents".utf8), Array("Resources".utf8)]
    private static let indexName = Array("docSet.dsidx".utf8)

    /// True for an extracted file the installer may change after extraction (created writable).
    static func isLate(_ components: [[UInt8]]) -> Bool {
        components.count == 3 && components[0] == resources[0] && components[1] == resources[1]
            && components[2].starts(with: indexName)
    }

    /// Makes the late files `paths` (relative to `root`, missing ones skipped) read-only; links are left alone.
    static func finish(_ root: DirectoryHandle, paths: [String]) throws(InstallError) {
        for path in paths {
            let parts = path.split(separator: "/").map(String.init)
            var directory = root
            var reachable = true
            for part in parts.dropLast() {
                guard let st = try directory.status(part), st.st_mode & S_IFMT == S_IFDIR else {
                    reachable = false
                    break
                }
                directory = try directory.directory(part)
            }
            guard reachable, let name = parts.last, let st = try directory.status(name), st.st_mode & S_IFMT == S_IFREG
            else { continue }
            let mode = st.st_mode & 0o7777 & ~0o222
            if fchmodat(directory.fd, name, mode, 0) != 0 { throw directory.error("fchmodat", name) }
        }
    }
}
