import CArchive
import CArchiveShim

#if canImport(Glibc)
    import Glibc
#endif

/// Writes archives with libarchive — for tests and tools that need real (including hostile) archives.
package final class ArchiveWriter {
    package enum Format: Sendable { case pax, gnutar, ustar, zip, xar }
    package enum Filter: Sendable { case none, gzip, bzip2, xz, zstd }

    /// One entry to write. Any combination is allowed, so hostile archives can be built on purpose.
    package struct Entry: Sendable {
        package enum Kind: Sendable {
            case file(data: [UInt8])
            case directory
            case symlink(target: String)
            case hardlink(target: String, data: [UInt8] = [])
            case characterDevice, blockDevice, fifo, socket
            /// A sparse file declaring `size` bytes with `data` at offset 0.
            case sparse(size: Int64, data: [UInt8])
        }

        package var path: String
        package var kind: Kind
        package var permissions: UInt32
        package var xattrs: [(name: String, value: [UInt8])]

        package init(
            _ path: String, _ kind: Kind, permissions: UInt32? = nil, xattrs: [(name: String, value: [UInt8])] = []
        ) {
            self.path = path
            self.kind = kind
            if let permissions {
                self.permissions = permissions
            } else if case .directory = kind {
                self.permissions = 0o755
            } else {
                self.permissions = 0o644
            }
            self.xattrs = xattrs
        }

        package static func file(_ path: String, _ text: String, permissions: UInt32 = 0o644) -> Entry {
            Entry(path, .file(data: Array(text.utf8)), permissions: permissions)
        }

        package static func directory(_ path: String) -> Entry { Entry(path, .directory) }
    }

    private let archive: OpaquePointer
    private let path: String
    private var closed = false

    package init(path: String, format: Format, filter: Filter = .none) throws(ArchiveFailure) {
        try LibArchiveLoader.load()
        guard let archive = ds_archive_write_new() else { throw ArchiveFailure(message: "archive_write_new failed") }
        self.archive = archive
        self.path = path
        var status: Int32
        switch format {
        case .pax: status = ds_archive_write_set_format_pax(archive)
        case .gnutar: status = ds_archive_write_set_format_gnutar(archive)
        case .ustar: status = ds_archive_write_set_format_ustar(archive)
        case .zip: status = ds_archive_write_set_format_zip(archive)
        case .xar: status = ds_archive_write_set_format_xar(archive)
        }
        if status == ARCHIVE_OK {
            switch filter {
            case .none: status = ARCHIVE_OK
            case .gzip: status = ds_archive_write_add_filter_gzip(archive)
            case .bzip2: status = ds_archive_write_add_filter_bzip2(archive)
            case .xz: status = ds_archive_write_add_filter_xz(archive)
            case .zstd: status = ds_archive_write_add_filter_zstd(archive)
            }
        }
        if status == ARCHIVE_OK { status = ds_archive_write_open_filename(archive, path) }
        if status != ARCHIVE_OK {
            closed = true  // deinit only frees
            throw ArchiveFailure(message: message(archive, "cannot create \(path)"))
        }
    }

    deinit {
        if !closed { ds_archive_write_close(archive) }
        ds_archive_write_free(archive)
    }

    package func add(_ item: Entry) throws(ArchiveFailure) {
        guard let entry = ds_archive_entry_new() else { throw ArchiveFailure(message: "archive_entry_new failed") }
        defer { ds_archive_entry_free(entry) }
        ds_archive_entry_set_pathname(entry, item.path)
        ds_archive_entry_set_perm(entry, mode_t(item.permissions))
        ds_archive_entry_set_mtime(entry, 1_700_000_000, 0)
        for xattr in item.xattrs {
            xattr.value.withUnsafeBytes { ds_archive_entry_xattr_add_entry(entry, xattr.name, $0.baseAddress, $0.count) }
        }
        var data: [UInt8] = []
        switch item.kind {
        case .file(let bytes):
            ds_archive_entry_set_filetype(entry, EntryType.regular)
            ds_archive_entry_set_size(entry, Int64(bytes.count))
            data = bytes
        case .directory:
            ds_archive_entry_set_filetype(entry, EntryType.directory)
        case .symlink(let target):
            ds_archive_entry_set_filetype(entry, EntryType.symlink)
            ds_archive_entry_set_symlink(entry, target)
        case .hardlink(let target, let bytes):
            ds_archive_entry_set_filetype(entry, EntryType.regular)
            ds_archive_entry_set_hardlink(entry, target)
            ds_archive_entry_set_size(entry, Int64(bytes.count))
            data = bytes
        case .characterDevice:
            ds_archive_entry_set_filetype(entry, EntryType.characterDevice)
            ds_archive_entry_set_rdevmajor(entry, 1)
            ds_archive_entry_set_rdevminor(entry, 3)
        case .blockDevice:
            ds_archive_entry_set_filetype(entry, EntryType.blockDevice)
            ds_archive_entry_set_rdevmajor(entry, 7)
        case .fifo: ds_archive_entry_set_filetype(entry, EntryType.fifo)
        case .socket: ds_archive_entry_set_filetype(entry, EntryType.socket)
        case .sparse(let size, let bytes):
            ds_archive_entry_set_filetype(entry, EntryType.regular)
            ds_archive_entry_set_size(entry, size)
            ds_archive_entry_sparse_add_entry(entry, 0, Int64(bytes.count))
            data = bytes
        }
        if ds_archive_write_header(archive, entry) < ARCHIVE_WARN {
            throw ArchiveFailure(message: message(archive, "cannot write header for \(item.path)"))
        }
        if !data.isEmpty {
            let written = data.withUnsafeBytes { ds_archive_write_data(archive, $0.baseAddress, $0.count) }
            if written < 0 { throw ArchiveFailure(message: message(archive, "cannot write data for \(item.path)")) }
        }
    }

    package func close() throws(ArchiveFailure) {
        closed = true
        if ds_archive_write_close(archive) != ARCHIVE_OK {
            throw ArchiveFailure(message: message(archive, "cannot finish \(path)"))
        }
    }
}
