import CArchive
import CArchiveShim
import DocSyncSupport
import DocSyncTarix

#if canImport(Glibc)
    import Glibc
#endif

// With ArchiveWriter.swift, the only files that import libarchive. libarchive is used to READ (ArchiveReader);
// ArchiveWriter builds archives for tests and tools. archive_write_disk is never used: it changes the process umask
// per entry and may chdir. libarchive is loaded by the first reader or writer (CArchiveShim), not at start-up.

/// A libarchive failure: the operation and libarchive's own message; or libarchive itself could not be loaded
/// (``library``), which is no fault of the archive.
package struct ArchiveFailure: Error, Sendable, Equatable, CustomStringConvertible {
    package let message: String
    /// Set when libarchive is missing or lacks a function docsync calls.
    package let library: LibraryUnavailable?

    package init(message: String) {
        self.message = message
        library = nil
    }

    package init(_ library: LibraryUnavailable) {
        message = library.description
        self.library = library
    }

    package var description: String { message }
}

/// libarchive's AE_IF* file-type values (C macros with casts, not imported).
enum EntryType {
    static let typeMask: UInt32 = 0o170000
    static let regular: UInt32 = 0o100000
    static let directory: UInt32 = 0o040000
    static let symlink: UInt32 = 0o120000
    static let characterDevice: UInt32 = 0o020000
    static let blockDevice: UInt32 = 0o060000
    static let fifo: UInt32 = 0o010000
    static let socket: UInt32 = 0o140000
}

func message(_ archive: OpaquePointer, _ what: String) -> String {
    if let text = ds_archive_error_string(archive) { return "\(what): \(String(cString: text))" }
    return what
}

/// Reads archive entries from an `ArchiveSource`: formats tar (all variants libarchive's tar reader knows), zip and
/// xar; filters gzip, bzip2, xz and zstd, each through its linked library (an external program is refused).
/// Detects the format from content. Not thread-safe: one thread uses it at a time.
final class ArchiveReader {
    private let archive: OpaquePointer
    private let context: Unmanaged<ReadContext>
    private var entry: OpaquePointer?

    /// Owns the block buffer libarchive reads from, and hashes what is read while reads are sequential. A gzip
    /// source is inflated here with ISA-L (``GzipInflater``), so libarchive reads plain tar.
    final class ReadContext {
        let source: any ArchiveSource
        let buffer: UnsafeMutableRawBufferPointer
        var hash = SHA256()
        var position: Int64 = 0
        /// Still hashing: reads are sequential, and the caller wants the digest.
        var sequential: Bool
        var error: SystemError?
        /// Bytes at the buffer's front read before libarchive opened (the format sniff), not yet handed over.
        var pending = 0
        /// Set when the source is gzip: libarchive gets the inflated bytes.
        var inflater: GzipInflater?
        /// Damage the inflater found (a truncated or corrupt gzip stream).
        var damage: ArchiveFailure?

        init(source: any ArchiveSource, hashing: Bool) {
            self.source = source
            sequential = hashing
            buffer = .allocate(byteCount: 1 << 20, alignment: 64)
        }

        deinit { buffer.deallocate() }

        /// Reads from the source into `space`, hashing what it reads.
        func read(into space: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
            let n = try source.read(into: space)
            if sequential { hash.update(UnsafeRawBufferPointer(rebasing: space[..<n])) }
            position += Int64(n)
            return n
        }

        /// Reads the source's first bytes (at least 3 unless it is shorter) and sets up inflation when they are the
        /// gzip magic. Returns true for gzip.
        func sniff() throws(SystemError) -> Bool {
            while pending < 3 {
                let n = try read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[pending...]))
                if n == 0 { break }
                pending += n
            }
            guard GzipInflater.isGzip(UnsafeRawBufferPointer(rebasing: buffer[..<pending])) else { return false }
            inflater = GzipInflater(input: buffer, pending: pending, name: source.displayName)
            pending = 0
            return true
        }

        /// The next block for libarchive: the sniffed bytes, then the source's (inflated when gzip); empty at the end.
        func nextBlock() throws(SystemError) -> UnsafeRawBufferPointer {
            if let inflater { return try inflate(inflater) }
            if pending > 0 {
                defer { pending = 0 }
                return UnsafeRawBufferPointer(rebasing: buffer[..<pending])
            }
            let n = try read(into: buffer)
            return UnsafeRawBufferPointer(rebasing: buffer[..<n])
        }

        private func inflate(_ inflater: GzipInflater) throws(SystemError) -> UnsafeRawBufferPointer {
            while true {
                let step: GzipInflater.Step
                do { step = try inflater.step() } catch {
                    damage = ArchiveFailure(message: error.description)
                    throw SystemError("inflate", path: source.displayName, code: EIO)
                }
                switch step {
                case .output(let bytes): return bytes
                case .end: return UnsafeRawBufferPointer(start: nil, count: 0)
                case .needInput: inflater.supplied(try read(into: inflater.inputSpace()))
                }
            }
        }

        /// Compressed bytes consumed: read from the source, less what the inflater still holds.
        var compressedConsumed: Int64 { position - Int64(inflater?.unconsumed ?? 0) }
    }

    /// - Parameter hashing: hash the archive bytes as they are read (``finishDigest()``); false when the caller
    ///   already knows the archive's SHA-256.
    init(source: any ArchiveSource, hashing: Bool = true) throws(ArchiveFailure) {
        try LibArchiveLoader.load()
        guard let archive = ds_archive_read_new() else { throw ArchiveFailure(message: "archive_read_new failed") }
        self.archive = archive
        context = Unmanaged.passRetained(ReadContext(source: source, hashing: hashing))
        let gzip: Bool
        do throws(SystemError) { gzip = try context.takeUnretainedValue().sniff() } catch {
            context.takeUnretainedValue().error = error
            throw failure("cannot read the start of the archive")
        }
        let filters: [(String, (OpaquePointer?) -> Int32)] = [
            ("gzip", ds_archive_read_support_filter_gzip), ("bzip2", ds_archive_read_support_filter_bzip2),
            ("xz", ds_archive_read_support_filter_xz), ("zstd", ds_archive_read_support_filter_zstd),
        ]
        let formats: [(String, (OpaquePointer?) -> Int32)] = [
            ("tar", ds_archive_read_support_format_tar), ("zip", ds_archive_read_support_format_zip),
            ("xar", ds_archive_read_support_format_xar),
        ]
        // A gzip source is inflated in the read callback: libarchive sees its tar, with no filter to detect.
        for (name, call) in (gzip ? [] : filters) + formats where call(archive) != ARCHIVE_OK {
            // ARCHIVE_WARN here means "will run an external program": refused.
            // deinit frees the archive: every stored property is set, so a throwing init still runs it.
            throw ArchiveFailure(message: message(archive, "libarchive cannot read \(name) in-process"))
        }
        ds_archive_read_set_callback_data(archive, context.toOpaque())
        ds_archive_read_set_read_callback(archive) { _, data, out in
            let context = Unmanaged<ReadContext>.fromOpaque(data!).takeUnretainedValue()
            do throws(SystemError) {
                let block = try context.nextBlock()
                out?.pointee = block.baseAddress
                return block.count
            } catch {
                if context.damage == nil { context.error = error }
                return -1
            }
        }
        if !gzip && source.seek(to: 0, whence: SEEK_CUR) != nil {
            ds_archive_read_set_seek_callback(archive) { _, data, offset, whence in
                let context = Unmanaged<ReadContext>.fromOpaque(data!).takeUnretainedValue()
                context.pending = 0
                guard let position = context.source.seek(to: offset, whence: whence) else { return -1 }
                if position != context.position { context.sequential = false }
                context.position = position
                return position
            }
        }
        if ds_archive_read_open1(archive) != ARCHIVE_OK {
            // The source's own error when its read failed (libarchive has no text for it), else libarchive's.
            throw failure("cannot read the start of the archive")
        }
    }

    deinit {
        ds_archive_read_free(archive)
        context.release()
    }

    /// Runs `body` with this thread's LC_CTYPE set to C.UTF-8 (uselocale: this thread only). libarchive converts
    /// names between UTF-8 (xar, pax, zip) and the current locale; under the default "C" locale a non-ASCII name
    /// comes back empty. Call it on a dedicated thread, around the reader's whole life.
    static func withUTF8Locale<T>(_ body: () throws(InstallError) -> T) throws(InstallError) -> T {
        guard let utf8 = newlocale(1 << LC_CTYPE, "C.UTF-8", nil) else { return try body() }
        let previous = uselocale(utf8)
        defer {
            uselocale(previous)
            freelocale(utf8)
        }
        return try body()
    }

    /// A failure naming the archive: the inflater's finding, the source's I/O error, or libarchive's message.
    private func failure(_ what: String) -> ArchiveFailure {
        let context = context.takeUnretainedValue()
        if let damage = context.damage { return ArchiveFailure(message: "\(what): \(damage)") }
        let named = "\(what) in \(context.source.displayName)"
        if let error = context.error { return ArchiveFailure(message: "\(named): \(error)") }
        return ArchiveFailure(message: message(archive, named))
    }

    /// The next entry's metadata, or nil at the end of the archive.
    func next() throws(ArchiveFailure) -> ArchiveEntryMetadata? {
        var entry: OpaquePointer?
        let status = ds_archive_read_next_header(archive, &entry)
        if status == ARCHIVE_EOF {
            try finishInflating()
            return nil
        }
        guard status == ARCHIVE_OK || status == ARCHIVE_WARN, let entry else {
            throw failure("unreadable archive entry")
        }
        self.entry = entry
        // The raw name first (no charset conversion: cheap, and exactly the bytes archived); the UTF-8 form when the
        // name cannot be represented in the current locale (pax names with non-ASCII characters under "C").
        let path = Self.name(ds_archive_entry_pathname(entry), ds_archive_entry_pathname_utf8(entry)) ?? []
        let type = UInt32(ds_archive_entry_filetype(entry)) & EntryType.typeMask
        let kind: ArchiveEntryMetadata.Kind
        if let target = Self.name(ds_archive_entry_hardlink(entry), ds_archive_entry_hardlink_utf8(entry)) {
            kind = .hardlink(target: target)
        } else {
            switch type {
            case EntryType.regular: kind = .regular
            case EntryType.directory: kind = .directory
            case EntryType.symlink:
                let target = Self.name(ds_archive_entry_symlink(entry), ds_archive_entry_symlink_utf8(entry))
                kind = .symlink(target: target ?? [])
            case EntryType.characterDevice: kind = .characterDevice
            case EntryType.blockDevice: kind = .blockDevice
            case EntryType.fifo: kind = .fifo
            case EntryType.socket: kind = .socket
            default: kind = .unknown(type)
            }
        }
        let size: Int64? = ds_archive_entry_size_is_set(entry) != 0 ? ds_archive_entry_size(entry) : nil
        return ArchiveEntryMetadata(
            path: path, kind: kind, permissions: UInt32(ds_archive_entry_perm(entry)) & 0o7777, size: size)
    }

    /// Reads the current entry's data (holes of sparse files come back as zeros); 0 at the entry's end.
    func readData(into buffer: UnsafeMutableRawBufferPointer) throws(ArchiveFailure) -> Int {
        let n = ds_archive_read_data(archive, buffer.baseAddress, buffer.count)
        if n < 0 { throw failure("corrupt or truncated data") }
        return n
    }

    /// Compressed bytes consumed from the source so far.
    var bytesConsumed: Int64 {
        let context = context.takeUnretainedValue()
        return context.inflater == nil ? ds_archive_filter_bytes(archive, -1) : context.compressedConsumed
    }

    /// A gzip source: inflates what follows the tar's end (its padding, the last member's CRC-32 and length, further
    /// members) so a damaged end is refused like damage anywhere else.
    private func finishInflating() throws(ArchiveFailure) {
        let context = context.takeUnretainedValue()
        guard context.inflater != nil else { return }
        do throws(SystemError) {
            while try context.nextBlock().count > 0 {}
        } catch {
            throw failure("corrupt or truncated archive end")
        }
    }

    /// Reads the source to its end and returns the SHA-256 of the whole archive, or nil when libarchive sought
    /// (the caller hashes the file again) or hashing was off (the caller knows the digest; the trailing bytes are
    /// still read, so a source that checks it was read to its end sees them).
    func finishDigest() throws(SystemError) -> SHA256.Digest? {
        let context = context.takeUnretainedValue()
        let hashing = context.sequential
        while true {
            let n = try context.source.read(into: context.buffer)
            if n == 0 { break }
            if hashing { context.hash.update(UnsafeRawBufferPointer(rebasing: context.buffer[..<n])) }
        }
        return hashing ? context.hash.finalize() : nil
    }

    /// The raw name, or the UTF-8 one when the raw form is missing or empty (xar and pax names that the C locale
    /// cannot represent come back empty).
    private static func name(_ raw: UnsafePointer<CChar>?, _ utf8: @autoclosure () -> UnsafePointer<CChar>?) -> [UInt8]?
    {
        if let bytes = bytes(raw), !bytes.isEmpty { return bytes }
        return bytes(utf8()) ?? bytes(raw)
    }

    private static func bytes(_ pointer: UnsafePointer<CChar>?) -> [UInt8]? {
        guard let pointer else { return nil }
        return Array(UnsafeRawBufferPointer(start: pointer, count: strlen(pointer)))
    }
}
