import DocSyncSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Creates accepted entries under a staging directory, relative to cached directory descriptors: no path is ever
/// resolved from the root again, nothing is followed (`O_NOFOLLOW` on every open, directories opened with
/// `O_DIRECTORY | O_NOFOLLOW`), files are created with `O_EXCL`, and modes are exactly 0444/0555 whatever the umask:
/// read-only from the start (the descriptor opened for writing keeps writing), so publishing needs no second walk to
/// take write permission away. The few files the installer changes after extraction (`ReadOnlyTree.isLate`) are
/// created 0644/0755 and made read-only by the installer once it is done with them.
///
/// With a `ManifestRecorder`, every directory created, link and file (with the SHA-256 of the bytes written, hashed
/// by the reader thread as it handed them over) is recorded as it happens: the manifest costs no read of the tree.
///
/// Duplicates: a later regular file replaces an earlier regular file, a later link an earlier link (last wins, as
/// tar does); a directory repeated is kept; any change of type (file ↔ directory ↔ link) is rejected.
/// Used by one thread.
final class TreeWriter {
    private let rootFD: Int32
    private let rootPath: String
    private let fixModes: Bool
    /// Open descriptors of the directory chain used last, `stack[i]` for `components[0...i]`.
    private var stack: [(name: [UInt8], fd: Int32)] = []
    private var openFile: (fd: Int32, entry: PlannedEntry)?
    private let recorder: ManifestRecorder?
    private var fileBytes: Int64 = 0
    private(set) var fileCount = 0
    private(set) var directoryCount = 0
    private(set) var bytesWritten: Int64 = 0

    init(rootFD: Int32, rootPath: String, recorder: ManifestRecorder? = nil) {
        self.rootFD = rootFD
        self.rootPath = rootPath
        self.recorder = recorder
        fixModes = ProcessUmask.value & 0o755 != 0
    }

    deinit {
        if let openFile { close(openFile.fd) }
        for item in stack { close(item.fd) }
    }

    /// Creates what `item` describes; file data is read from `block`.
    func apply(_ item: ExtractionItem, block: UnsafeMutableRawBufferPointer) throws(InstallError) {
        switch item {
        case .begin(let entry, let data, let complete, let hash):
            switch entry.action {
            case .directory:
                _ = try directory(entry.components[...], for: entry, isEntry: true)
                directoryCount += 1
            case .symlink(let target):
                try symlink(entry, target: target)
            case .file(let mode):
                let fd = try createFile(entry, mode: mode)
                openFile = (fd, entry)
                try write(UnsafeRawBufferPointer(rebasing: block[data]))
                if complete { try closeFile(hash) }
            }
        case .more(let data, let complete, let hash):
            try write(UnsafeRawBufferPointer(rebasing: block[data]))
            if complete { try closeFile(hash) }
        }
    }

    private func fail(_ entry: PlannedEntry, _ rule: EntryRule) -> InstallError {
        .rejected(entry: entry.archivePath, rule: rule)
    }

    /// A full disk (ENOSPC, EDQUOT) is reported as what it is, with the path being written: "write …/x.html: No space
    /// left on device".
    private func ioError(_ call: String, _ entry: PlannedEntry, code: Int32 = errno) -> InstallError {
        .io(SystemError(call, path: "\(rootPath)/\(entry.relativePath)", code: code))
    }

    /// The descriptor of the directory `components`, creating missing directories (0755) on the way.
    /// `isEntry`: the last component is the directory entry itself (a non-directory there is a duplicate of another
    /// type, not a path through a file).
    private func directory(_ components: ArraySlice<[UInt8]>, for entry: PlannedEntry, isEntry: Bool = false)
        throws(InstallError) -> Int32
    {
        var common = 0
        while common < stack.count, common < components.count,
            stack[common].name == components[components.startIndex + common]
        {
            common += 1
        }
        while stack.count > common { close(stack.removeLast().fd) }
        var parent = stack.last?.fd ?? rootFD
        for (index, name) in components.enumerated().dropFirst(common) {
            let last = isEntry && index == components.count - 1
            let (fd, created) = try openDirectory(name, in: parent, for: entry, isEntry: last)
            stack.append((name, fd))
            parent = fd
            if created, let recorder {
                try recorder.directory(components[components.startIndex...(components.startIndex + index)])
            }
        }
        return parent
    }

    /// The descriptor of `name` in `parent`, and whether this call created it.
    private func openDirectory(_ name: [UInt8], in parent: Int32, for entry: PlannedEntry, isEntry: Bool)
        throws(InstallError) -> (Int32, created: Bool)
    {
        let flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC
        var fd = withCName(name) { openat(parent, $0, flags) }
        var created = false
        if fd < 0 && errno == ENOENT {
            if withCName(name, { mkdirat(parent, $0, 0o755) }) == 0 {
                created = true
            } else if errno != EEXIST {
                throw ioError("mkdirat", entry)
            }
            fd = withCName(name) { openat(parent, $0, flags) }
            if fd >= 0 && fixModes { fchmod(fd, 0o755) }
        }
        if fd < 0 {
            if errno == ELOOP || errno == ENOTDIR {
                throw fail(entry, isEntry ? .conflictingDuplicate : .writeThroughSymlink)
            }
            throw ioError("openat", entry)
        }
        return (fd, created)
    }

    private func createFile(_ entry: PlannedEntry, mode planned: UInt32) throws(InstallError) -> Int32 {
        let mode = ReadOnlyTree.isLate(entry.components) ? planned : planned & ~0o222
        let parent = try directory(entry.components.dropLast(), for: entry)
        let name = entry.components[entry.components.count - 1]
        let flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC
        var fd = withCName(name) { openat(parent, $0, flags, mode_t(mode)) }
        if fd < 0 && errno == EEXIST {
            try replaceExisting(name, in: parent, ifType: S_IFREG, for: entry)
            fd = withCName(name) { openat(parent, $0, flags, mode_t(mode)) }
        }
        if fd < 0 { throw ioError("openat", entry) }
        if fixModes && mode_t(mode) & ProcessUmask.value != 0 { fchmod(fd, mode_t(mode)) }
        fileCount += 1
        fileBytes = 0
        return fd
    }

    private func symlink(_ entry: PlannedEntry, target: [UInt8]) throws(InstallError) {
        let parent = try directory(entry.components.dropLast(), for: entry)
        let name = entry.components[entry.components.count - 1]
        let create = { withCName(target) { t in withCName(name) { symlinkat(t, parent, $0) } } }
        if create() != 0 {
            guard errno == EEXIST else { throw ioError("symlinkat", entry) }
            try replaceExisting(name, in: parent, ifType: S_IFLNK, for: entry)
            if create() != 0 { throw ioError("symlinkat", entry) }
        }
        try recorder?.symlink(entry.components[...], target: target)
    }

    /// Last wins for an existing entry of the same type; a different type is a conflicting duplicate.
    private func replaceExisting(_ name: [UInt8], in parent: Int32, ifType type: mode_t, for entry: PlannedEntry)
        throws(InstallError)
    {
        var st = stat()
        if withCName(name, { fstatat(parent, $0, &st, AT_SYMLINK_NOFOLLOW) }) != 0 { throw ioError("fstatat", entry) }
        guard st.st_mode & S_IFMT == type else { throw fail(entry, .conflictingDuplicate) }
        if withCName(name, { unlinkat(parent, $0, 0) }) != 0 { throw ioError("unlinkat", entry) }
    }

    private func write(_ buffer: UnsafeRawBufferPointer) throws(InstallError) {
        guard let (fd, entry) = openFile else { return }
        do throws(SystemError) { try LinuxFS.writeAll(fd, buffer, path: entry.relativePath) } catch {
            throw ioError("write", entry, code: error.code)
        }
        fileBytes += Int64(buffer.count)
        bytesWritten += Int64(buffer.count)
    }

    /// `hash`: the file's bytes hashed by the reader (nil without a recorder).
    private func closeFile(_ hash: SHA256? = nil) throws(InstallError) {
        guard let (fd, entry) = openFile else { return }
        openFile = nil
        if close(fd) != 0 { throw ioError("close", entry) }
        if let recorder, let hash { try recorder.file(entry.components[...], size: fileBytes, digest: hash.finalize()) }
    }

    /// Closes every cached descriptor (before the staging directory is synced and renamed).
    func finish() throws(InstallError) {
        try closeFile()
        while let item = stack.popLast() { close(item.fd) }
    }
}

/// Calls `body` with `bytes` as a NUL-terminated C string.
@inline(__always)
func withCName<R>(_ bytes: [UInt8], _ body: (UnsafePointer<CChar>) -> R) -> R {
    withUnsafeTemporaryAllocation(of: CChar.self, capacity: bytes.count + 1) { buffer in
        bytes.withUnsafeBytes { source in
            UnsafeMutableRawBufferPointer(buffer).copyMemory(from: source)
        }
        buffer[bytes.count] = 0
        return body(buffer.baseAddress!)
    }
}
