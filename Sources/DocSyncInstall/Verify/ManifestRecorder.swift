import DocSyncSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Writes a version's `TreeManifest` while its tree is being created: the writer reports every directory it makes,
/// every link, and every file with the SHA-256 of the bytes it wrote (hashed as they went to disk, so the manifest
/// costs no second read of the tree). Lines go through a 64 KiB buffer straight to the file: memory does not grow
/// with the entry count.
///
/// The file is `<root>/.docsync/manifests/.building-<staging ID>` until the install renames it to the version's name
/// (before the version is published; the publishing `syncfs` makes both durable). A crash leaves it behind with no
/// version of that name, and the next run's recovery deletes it with the other orphaned manifests.
///
/// Format 2 (see `TreeManifest`): lines in the order things happened, a later line for a path replacing an earlier
/// one (a duplicate archive entry, a file the installer rewrote after extraction), `X PATH` for a path removed again.
/// Used by one thread at a time.
final class ManifestRecorder {
    static let bufferBytes = 64 << 10
    let name: String
    private let directory: DirectoryHandle
    private var fd: Int32
    private var buffer: [UInt8] = []

    /// Creates `name` in `directory` (exclusively, never through a link) and writes the header.
    init(in directory: DirectoryHandle, name: String) throws(InstallError) {
        self.directory = directory
        self.name = name
        _ = unlinkat(directory.fd, name, 0)
        do { fd = try directory.base.openFile(name, O_WRONLY | O_CREAT | O_EXCL | O_TRUNC) } catch { throw .io(error) }
        buffer.reserveCapacity(Self.bufferBytes)
        buffer += TreeManifest.header2.utf8
        buffer.append(0x0A)
    }

    deinit { if fd >= 0 { close(fd) } }

    /// A directory the writer created.
    func directory(_ components: ArraySlice<[UInt8]>) throws(InstallError) {
        buffer += [UInt8(ascii: "D"), 0x20]
        appendPath(components)
        try endLine()
    }

    /// A regular file with `size` bytes whose SHA-256 is `digest`.
    func file(_ components: ArraySlice<[UInt8]>, size: Int64, digest: SHA256.Digest) throws(InstallError) {
        buffer += [UInt8(ascii: "F"), 0x20]
        buffer += String(size).utf8
        buffer.append(0x20)
        appendHex(digest.bytes)
        buffer.append(0x20)
        appendPath(components)
        try endLine()
    }

    /// A symbolic link to `target`.
    func symlink(_ components: ArraySlice<[UInt8]>, target: [UInt8]) throws(InstallError) {
        buffer += [UInt8(ascii: "L"), 0x20]
        appendPath(components)
        buffer.append(0x20)
        appendPath([target][...])
        try endLine()
    }

    /// A path that no longer exists.
    func removed(_ components: ArraySlice<[UInt8]>) throws(InstallError) {
        buffer += [UInt8(ascii: "X"), 0x20]
        appendPath(components)
        try endLine()
    }

    /// Records `relativePath` (components separated by "/") as it is on disk now below `root`: read again for a
    /// file, `X` when it is gone. For the few paths changed after extraction (the prepared index, meta.json, icons).
    /// Returns the SHA-256 (hex) recorded for a regular file (nil for anything else), so that a caller needing the
    /// file's digest does not read it twice.
    @discardableResult
    func rerecord(_ relativePath: String, below root: DirectoryHandle) throws(InstallError) -> String? {
        let components = relativePath.split(separator: "/").map { Array($0.utf8) }
        guard let last = components.last else { return nil }
        var parent: SafeDirectory = root.base
        for component in components.dropLast() {
            guard let next = try? parent.existingDirectory(String(decoding: component, as: UTF8.self)) else {
                try removed(components[...])
                return nil
            }
            parent = next
        }
        let name = String(decoding: last, as: UTF8.self)
        guard let st = parent.status(name) else {
            try removed(components[...])
            return nil
        }
        switch st.st_mode & S_IFMT {
        case S_IFREG:
            do {
                let (hex, size) = try parent.digest(of: name)
                guard let digest = SHA256.Digest(hex: hex) else { throw SystemError("digest", path: name, code: EIO) }
                try file(components[...], size: size, digest: digest)
                return hex
            } catch let error as InstallError {
                throw error
            } catch {
                throw .io(SystemError("read", path: parent.childPath(name), code: EIO))
            }
        case S_IFDIR: try directory(components[...])
        case S_IFLNK:
            var target = [CChar](repeating: 0, count: 4097)
            let n = readlinkat(parent.fd, name, &target, 4096)
            if n < 0 { throw .io(SystemError("readlinkat", path: parent.childPath(name))) }
            try symlink(components[...], target: target[..<n].map { UInt8(bitPattern: $0) })
        default: break
        }
        return nil
    }

    /// Writes what is buffered and closes the file (the install's `syncfs` makes it durable).
    func finish() throws(InstallError) {
        try flush()
        let result = close(fd)
        fd = -1
        if result != 0 { throw directory.error("close", name) }
    }

    /// Closes and deletes the file (a failed install).
    func discard() {
        if fd >= 0 { close(fd) }
        fd = -1
        _ = unlinkat(directory.fd, name, 0)
    }

    // MARK: Encoding

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Components joined by "/", each byte that is a control character, a space or `%` percent-encoded (as
    /// `TreeManifest` encodes a path; other bytes, UTF-8 or not, are kept and decoded as the walk decodes names).
    private func appendPath(_ components: ArraySlice<[UInt8]>) {
        let start = buffer.count
        var first = true
        for component in components {
            if !first { buffer.append(UInt8(ascii: "/")) }
            first = false
            for byte in component {
                if byte <= 0x20 || byte == 0x25 || byte == 0x7F {
                    PercentEncoding.append(byte, to: &buffer)
                } else {
                    buffer.append(byte)
                }
            }
        }
        if buffer.count == start { buffer += Array("%00".utf8) }
    }

    private func appendHex(_ bytes: [UInt8]) {
        for byte in bytes {
            buffer.append(Self.hexDigits[Int(byte >> 4)])
            buffer.append(Self.hexDigits[Int(byte & 0xF)])
        }
    }

    private func endLine() throws(InstallError) {
        buffer.append(0x0A)
        if buffer.count >= Self.bufferBytes - 8192 { try flush() }
    }

    private func flush() throws(InstallError) {
        do throws(SystemError) { try LinuxFS.writeAll(fd, buffer, path: name) } catch {
            throw directory.error("write", name, code: error.code)
        }
        buffer.removeAll(keepingCapacity: true)
    }
}
