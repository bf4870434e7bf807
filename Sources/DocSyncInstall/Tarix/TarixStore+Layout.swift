#if canImport(Glibc)
    import Glibc
#endif

extension TarixStore {
    /// True when the docset folder open as `base` keeps its documents in a tarix store: no `Documents` entry beside
    /// `tarix.tgz` and `tarixIndex.db` in `Contents/Resources` (every reader and `docsync diff` decide so).
    package static func holdsDocuments(_ base: Int32) -> Bool {
        let resources = openat(base, "Contents/Resources", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard resources >= 0 else { return false }
        defer { close(resources) }
        var st = stat()
        if fstatat(resources, "Documents", &st, AT_SYMLINK_NOFOLLOW) == 0 { return false }
        return fstatat(resources, "tarix.tgz", &st, AT_SYMLINK_NOFOLLOW) == 0 && st.st_mode & S_IFMT == S_IFREG
            && fstatat(resources, "tarixIndex.db", &st, AT_SYMLINK_NOFOLLOW) == 0 && st.st_mode & S_IFMT == S_IFREG
    }
}
