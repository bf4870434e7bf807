import CDocSyncSys

#if canImport(Glibc)
    import Glibc
#endif

/// An open directory and the `*at` calls docsync makes relative to it: the one way docsync creates, opens for
/// writing, renames or deletes anything under its root, staging and state folders.
///
/// The rule (README, Security): a configured base folder (`root`, `staging`, `state`, a `fetch --staging`) is opened
/// by its path as the user wrote it; every folder and file docsync creates inside one is reached from the base's
/// descriptor with `O_NOFOLLOW`, one component at a time. A symlink where docsync expects its own file or folder is
/// `SystemError.symlink(path)`: nothing is written, renamed or deleted through it. Closed on deinit.
///
/// `@unchecked Sendable`: both properties are `let`; the descriptor is only passed to `*at` system calls, which are
/// thread-safe, and closed once, in `deinit`.
package final class SafeDirectory: @unchecked Sendable {
    package let fd: Int32
    package let path: String

    private init(fd: Int32, path: String) {
        self.fd = fd
        self.path = path
    }

    deinit { close(fd) }

    /// Opens a configured base folder, creating it and its missing parents (0755) when `create`.
    package static func open(_ path: String, create: Bool = false) throws(SystemError) -> SafeDirectory {
        if create { try makeParents(path) }
        let fd = Glibc.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd < 0 { throw SystemError("open", path: path) }
        return SafeDirectory(fd: fd, path: path)
    }

    /// Opens `path` as a folder docsync owns below `base`: the components after `base.path` are each opened with
    /// `O_NOFOLLOW` (created when `create`). A path outside `base` is opened as a base folder.
    package static func open(_ path: String, below base: SafeDirectory, create: Bool = false) throws(SystemError)
        -> SafeDirectory
    {
        let prefix = base.path.hasSuffix("/") ? base.path : base.path + "/"
        guard path.hasPrefix(prefix) else { return try open(path, create: create) }
        var directory = base
        for component in path.dropFirst(prefix.count).split(separator: "/") where component != "." {
            directory = try directory.directory(String(component), create: create)
        }
        return directory
    }

    /// A new handle on the open folder `fd` (duplicated; the caller keeps its own descriptor), named `path` in errors.
    package static func duplicating(_ fd: Int32, path: String) throws(SystemError) -> SafeDirectory {
        let copy = fcntl(fd, F_DUPFD_CLOEXEC, 0)
        if copy < 0 { throw SystemError("fcntl(F_DUPFD_CLOEXEC)", path: path) }
        return SafeDirectory(fd: copy, path: path)
    }

    private static func makeParents(_ path: String) throws(SystemError) {
        var current = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            current += "/\(component)"
            if mkdir(current, 0o755) != 0, errno != EEXIST { throw SystemError("mkdir", path: current) }
        }
    }

    package func childPath(_ name: String) -> String { path.hasSuffix("/") ? path + name : "\(path)/\(name)" }

    /// The error for a failed call on `name`: a symlink where one was refused is named as such.
    package func failure(_ call: String, _ name: String, code: Int32 = errno) -> SystemError {
        if code == ELOOP || code == ENOTDIR, isSymlink(name) { return .symlink(childPath(name)) }
        return SystemError(call, path: childPath(name), code: code)
    }

    package func isSymlink(_ name: String) -> Bool {
        guard let st = status(name) else { return false }
        return st.st_mode & S_IFMT == S_IFLNK
    }

    /// Opens (creating when `create`, with `mode`) the subfolder `name`, never following a symlink.
    package func directory(_ name: String, create: Bool = false, mode: mode_t = 0o755) throws(SystemError)
        -> SafeDirectory
    {
        if create, mkdirat(fd, name, mode) != 0, errno != EEXIST { throw failure("mkdirat", name) }
        let child = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        if child < 0 { throw failure("openat", name) }
        return SafeDirectory(fd: child, path: childPath(name))
    }

    /// Creates the symbolic link `name` -> `target` in this folder (`symlinkat(2)`). `target` must be relative and
    /// stay inside the tree docsync owns (the caller checks); an existing `name` is `EEXIST`, never replaced.
    package func makeSymlink(_ name: String, target: String) throws(SystemError) {
        precondition(!target.hasPrefix("/"), "docsync creates relative links only")
        if symlinkat(target, fd, name) != 0 { throw failure("symlinkat", name) }
    }

    /// The subfolder `name`, or nil when it does not exist (a symlink is still an error).
    package func existingDirectory(_ name: String) throws(SystemError) -> SafeDirectory? {
        let child = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        if child < 0 {
            if errno == ENOENT { return nil }
            throw failure("openat", name)
        }
        return SafeDirectory(fd: child, path: childPath(name))
    }

    /// `openat(2)` of `name` with `O_NOFOLLOW | O_CLOEXEC` added; the caller closes the descriptor.
    package func openFile(_ name: String, _ flags: Int32, mode: mode_t = 0o644) throws(SystemError) -> Int32 {
        let file = openat(fd, name, flags | O_NOFOLLOW | O_CLOEXEC, mode)
        if file < 0 { throw failure("openat", name) }
        return file
    }

    /// As `openFile`, with `O_DIRECT`; nil when the file system does not support direct I/O (EINVAL).
    package func openDirect(_ name: String, _ flags: Int32) throws(SystemError) -> Int32? {
        let file = ds_openat_direct(fd, name, flags | O_CLOEXEC)
        if file < 0, errno == EINVAL { return nil }
        if file < 0 { throw failure("openat(O_DIRECT)", name) }
        return file
    }

    /// lstat of `name`; nil when it does not exist (or cannot be examined).
    package func status(_ name: String) -> stat? {
        var st = stat()
        return fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 ? st : nil
    }

    package func exists(_ name: String) -> Bool { status(name) != nil }

    /// Reads a regular file of at most `limit` bytes; nil when it is missing; a symlink, a FIFO or device, or a larger
    /// file is an error (``RegularFile``: the open never blocks).
    package func readFile(_ name: String, limit: Int = 64 << 20) throws(SystemError) -> [UInt8]? {
        try RegularFile.read(name, in: fd, path: childPath(name), limit: limit)
    }

    /// Opens the regular file `name` for reading (``RegularFile/open(_:in:path:followSymlink:)``); nil when missing.
    package func openRegularFile(_ name: String) throws(SystemError) -> (fd: Int32, size: Int64)? {
        try RegularFile.open(name, in: fd, path: childPath(name))
    }

    /// Replaces `name` durably: writes `name.tmp-PID` (created exclusively, never through a link), fsyncs it, renames
    /// it over `name` (a symlink at `name` is replaced, not followed) and fsyncs this folder. Not `durable`: the same
    /// without the two fsyncs, for a cache whose loss or damage after a crash costs only a refetch (readers still see
    /// the old file or the new one, never a mix).
    package func writeFileAtomically(
        _ name: String, _ bytes: [UInt8], mode: mode_t = 0o644, durable: Bool = true
    ) throws(SystemError) {
        try writeFileAtomically(name, mode: mode, durable: durable) { (file, path) throws(SystemError) in
            try LinuxFS.writeAll(file, bytes, path: path)
        }
    }

    /// As `writeFileAtomically(_:_:mode:durable:)`, the bytes written by `write` to the temporary file (its
    /// descriptor and path for errors), so that a large file needs no copy in memory.
    package func writeFileAtomically(
        _ name: String, mode: mode_t = 0o644, durable: Bool = true,
        writing write: (_ file: Int32, _ path: String) throws(SystemError) -> Void
    ) throws(SystemError) {
        let temporary = "\(name).tmp-\(getpid())"
        _ = unlinkat(fd, temporary, 0)
        let file = try openFile(temporary, O_WRONLY | O_CREAT | O_EXCL, mode: mode)
        var failure: SystemError?
        do { try write(file, childPath(temporary)) } catch { failure = error }
        if failure == nil, fchmod(file, mode) != 0 { failure = SystemError("fchmod", path: childPath(temporary)) }
        if failure == nil, durable, fsync(file) != 0 { failure = SystemError("fsync", path: childPath(temporary)) }
        close(file)
        if let failure {
            _ = unlinkat(fd, temporary, 0)
            throw failure
        }
        do {
            try rename(temporary, to: self, as: name)
        } catch {
            _ = unlinkat(fd, temporary, 0)
            throw error
        }
        if durable { try sync() }
    }

    /// `renameat2(2)` of `name` here to `newName` in `target` (neither is followed if it is a link).
    package func rename(
        _ name: String, to target: SafeDirectory, as newName: String, mode: LinuxFS.RenameMode = .replace
    ) throws(SystemError) {
        do {
            try LinuxFS.rename(from: name, in: fd, to: newName, in: target.fd, mode: mode)
        } catch {
            throw SystemError("rename", path: "\(childPath(name)) -> \(target.childPath(newName))", code: error.code)
        }
    }

    /// Removes the entry `name` (the link itself when it is one); a missing entry is not an error.
    package func unlink(_ name: String, directory: Bool = false) throws(SystemError) {
        if unlinkat(fd, name, directory ? AT_REMOVEDIR : 0) != 0, errno != ENOENT { throw failure("unlinkat", name) }
    }

    package func sync() throws(SystemError) {
        if fsync(fd) != 0 { throw SystemError("fsync", path: path) }
    }

    /// Entry names (without "." and ".."), each with its d_type.
    package func entries() throws(SystemError) -> [(name: String, type: UInt8)] {
        let dupFD = dup(fd)
        guard dupFD >= 0, let dir = fdopendir(dupFD) else {
            if dupFD >= 0 { close(dupFD) }
            throw SystemError("fdopendir", path: path)
        }
        defer { closedir(dir) }
        rewinddir(dir)
        var result: [(String, UInt8)] = []
        while let record = readdir(dir) {
            let entry = DirectoryEntry(record)
            if entry.isDotOrDotDot { continue }
            result.append((entry.name, entry.type))
        }
        return result
    }
}
