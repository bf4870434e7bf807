import DocSyncSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Deletes a tree relative to a directory descriptor without following any symlink: every directory is opened with
/// `O_NOFOLLOW | O_DIRECTORY`, links are unlinked, never entered. Missing entries (another process deleting the same
/// trash) are not errors. Best effort: what cannot be deleted is left for the next run.
enum TreeRemover {
    static func remove(_ name: String, in parent: Int32) {
        if unlinkat(parent, name, 0) == 0 || errno == ENOENT { return }
        guard errno == EISDIR || errno == EPERM else { return }
        let fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return }
        emptyDirectory(fd)
        unlinkat(parent, name, AT_REMOVEDIR)
    }

    /// Deletes everything inside the directory `fd` and closes `fd`.
    static func emptyDirectory(_ fd: Int32) {
        guard let dir = fdopendir(fd) else {
            close(fd)
            return
        }
        defer { closedir(dir) }
        rewinddir(dir)  // a dup()ed descriptor shares its offset with one that may have been read to the end
        // Raw names (NUL-terminated): a name that is not UTF-8 must still be deletable.
        var subdirectories: [[CChar]] = []
        while let record = readdir(dir) {
            let entry = DirectoryEntry(record)
            if entry.isDotOrDotDot { continue }
            let name = entry.rawName
            if entry.type == DT_DIR {
                subdirectories.append(name)
            } else if unlinkat(fd, name, 0) != 0 && errno == EISDIR {
                subdirectories.append(name)
            }
        }
        for name in subdirectories {
            let child = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            if child >= 0 { emptyDirectory(child) }
            unlinkat(fd, name, AT_REMOVEDIR)
        }
    }
}
