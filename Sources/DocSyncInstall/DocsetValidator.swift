#if canImport(Glibc)
    import Glibc
#endif

/// Checks that an unpacked tree is a docset readers accept: `Contents/Info.plist`,
/// `Contents/Resources/docSet.dsidx` (regular files) and a documents folder, `Contents/Resources/Documents/`
/// (Dash) or `Contents/Resources/Documentation/` (Apple's XAR docsets).
enum DocsetValidator {
    static let infoPlist = "Contents/Info.plist"
    static let index = "Contents/Resources/docSet.dsidx"
    static let documentFolders = ["Contents/Resources/Documents", "Contents/Resources/Documentation"]

    /// The required paths missing under the directory `fd` (empty when valid).
    /// `tarix`: the documents are `Contents/Resources/tarix.tgz` and `tarixIndex.db`, not a folder.
    static func missing(in fd: Int32, tarix: Bool = false) -> [String] {
        var missing: [String] = []
        if !exists(infoPlist, type: S_IFREG, in: fd) { missing.append(infoPlist) }
        if !exists(index, type: S_IFREG, in: fd) { missing.append(index) }
        if tarix {
            missing += TarixStoreResult.files.filter { !exists($0, type: S_IFREG, in: fd) }
        } else if !documentFolders.contains(where: { exists($0, type: S_IFDIR, in: fd) }) {
            missing.append(documentFolders.map { "\($0)/" }.joined(separator: " or "))
        }
        return missing
    }

    /// Whether `path` is of `type` (no symlink is followed on the way: each component is opened O_NOFOLLOW).
    private static func exists(_ path: String, type: mode_t, in fd: Int32) -> Bool {
        let parts = path.split(separator: "/").map(String.init)
        var dir = fd
        var opened: [Int32] = []
        defer { for fd in opened { close(fd) } }
        for part in parts.dropLast() {
            let next = openat(dir, part, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard next >= 0 else { return false }
            opened.append(next)
            dir = next
        }
        var st = stat()
        guard fstatat(dir, parts[parts.count - 1], &st, AT_SYMLINK_NOFOLLOW) == 0 else { return false }
        return st.st_mode & S_IFMT == type
    }
}
