import DocSyncSupport
import DocSyncTarix

#if canImport(Glibc)
    import Glibc
#endif

/// The tarix layout's store, built by the installer: `DocSyncTarix` builds `tarix.tgz` and `tarixIndex.db` from
/// the verified archive. An archive with a flush point at every record is indexed as it is and copied (the
/// publisher's bytes); any other is re-encoded once with a full flush before every record. Every indexed path passes
/// `TarixPathPolicy` (extraction's rules, plus the one docset folder Zeal's reader strips).
package enum TarixStore {
    static let archiveName = "tarix.tgz"
    static let indexName = "tarixIndex.db"

    static let build: Build = { archive, archiveName, resourcesFD, resourcesPath, publisherIndex in
        var refused: String?
        if let publisherIndex {
            do {
                if let result = try usePublisherIndex(
                    publisherIndex, archive: archive, archiveName: archiveName, resourcesFD: resourcesFD,
                    resourcesPath: resourcesPath)
                {
                    return result
                }
            } catch {
                refused = "\(error)"
            }
        }
        let outputName = "\(resourcesPath)/\(Self.archiveName)"
        let output = openat(resourcesFD, Self.archiveName, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard output >= 0 else { throw SystemError("openat", path: outputName) }
        defer { close(output) }
        // SQLite opens by path: the staged folder is reached through its descriptor, never by a name that a
        // rename could redirect.
        let indexPath = "/proc/self/fd/\(resourcesFD)/\(Self.indexName)"
        let summary = try TarixBuilder.build(
            source: archive, sourceName: archiveName, output: output, outputName: outputName, indexPath: indexPath)
        if summary.mode == .indexedAsIs { try copy(archive, to: output, name: outputName) }
        return TarixStoreResult(
            mode: summary.mode.rawValue, documents: summary.documents, refusedIndex: refused,
            archiveSHA256: summary.archiveSHA256)
    }

    /// The install of an archive file in one pass (`OnePass`): with a publisher's index,
    /// `TarixVerifier` checks it against the archive in full; without one, `TarixBuilder.indexAsIs` indexes the
    /// archive when it is flushed at every record (nil when it is not: the installer starts over, re-encoding);
    /// when `pass.reencodes`, `TarixBuilder.reencode` re-encodes it into the store. Each walk hands `pass` the
    /// archive's bytes, every record and its data (the tree outside `Documents/`).
    static let onePass: OnePass = { pass, publisherIndex in
        try installInOnePass(pass, publisherIndex: publisherIndex)
    }

    private static func installInOnePass(_ pass: TarixOnePass, publisherIndex: String?) throws -> TarixStoreResult? {
        let stopped = TarixError.io(pass.archiveName, "stopped by the install")
        let observer = TarixWalkObserver(
            read: { bytes throws(TarixError) in if !pass.archiveBytes(bytes) { throw stopped } },
            record: { record throws(TarixError) in
                guard let metadata = ArchiveEntryMetadata(record) else { return }
                if !pass.entry(metadata) { throw stopped }
            },
            data: { bytes throws(TarixError) in if !pass.entryData(bytes) { throw stopped } })
        let indexPath = "/proc/self/fd/\(pass.folderFD)/\(indexName)"
        if pass.reencodes {
            let summary = try TarixBuilder.reencode(
                source: pass.archive, sourceName: pass.archiveName, output: pass.storeArchiveFD,
                outputName: "\(pass.folderPath)/\(archiveName)", indexPath: indexPath, observer: observer)
            return TarixStoreResult(
                mode: summary.mode.rawValue, documents: summary.documents, archiveSHA256: summary.archiveSHA256)
        }
        if let publisherIndex {
            try copyPublisherIndex(publisherIndex, to: pass.folderFD, folderPath: pass.folderPath)
            let summary = try TarixVerifier.verify(
                source: pass.archive, archiveBytes: knownLength(pass.archive), archiveName: pass.archiveName,
                indexPath: indexPath, observer: observer)
            try TarixIndexCompaction.compact(name: indexName, in: pass.folderFD, folderPath: pass.folderPath)
            return TarixStoreResult(mode: summary.mode.rawValue, documents: summary.documents, indexSource: "publisher")
        }
        return try indexAsIs(pass, indexPath: indexPath, observer: observer)
    }

    /// The archive indexed as it is; nil when it is not flushed at every record.
    private static func indexAsIs(_ pass: TarixOnePass, indexPath: String, observer: TarixWalkObserver)
        throws(TarixError) -> TarixStoreResult?
    {
        do {
            let summary = try TarixBuilder.indexAsIs(
                source: pass.archive, sourceName: pass.archiveName, indexPath: indexPath, observer: observer)
            return TarixStoreResult(mode: summary.mode.rawValue, documents: summary.documents)
        } catch let error where error.isNotFlushed {
            return nil
        }
    }

    /// A publisher's index (a bare database, or the `<url>.tarix` package it comes in, unpacked), copied into the
    /// store and checked there against the archive in full (`TarixVerifier`: every row's offset a flush point inside
    /// the file, its record named by its path and `length` blocks long, paths unique, every document indexed, every
    /// path passing extraction's rules), then rewritten packed (`TarixIndexCompaction`: the same rows in about half
    /// the bytes) unless it already is. Throws (after removing the copy) when one row is wrong: the caller builds
    /// its own index.
    static func usePublisherIndex(
        _ path: String, archive: any ByteSource, archiveName: String, resourcesFD: Int32, resourcesPath: String
    ) throws -> TarixStoreResult? {
        try copyPublisherIndex(path, to: resourcesFD, folderPath: resourcesPath)
        let summary: TarixSummary
        do {
            summary = try TarixVerifier.verify(
                source: archive, archiveBytes: knownLength(archive), archiveName: archiveName,
                indexPath: "/proc/self/fd/\(resourcesFD)/\(indexName)")
        } catch {
            unlinkat(resourcesFD, indexName, 0)
            throw error
        }
        try TarixIndexCompaction.compact(name: indexName, in: resourcesFD, folderPath: resourcesPath)
        let output = openat(resourcesFD, Self.archiveName, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard output >= 0 else { throw SystemError("openat", path: "\(resourcesPath)/\(Self.archiveName)") }
        defer { close(output) }
        try Self.copy(archive, to: output, name: "\(resourcesPath)/\(Self.archiveName)")
        return TarixStoreResult(mode: summary.mode.rawValue, documents: summary.documents, indexSource: "publisher")
    }

    /// Creates `tarixIndex.db` in the folder `folderFD` from a publisher's index at `path`: a bare database, copied,
    /// or the `<url>.tarix` package it comes in (a gzip'd tar), unpacked.
    static func copyPublisherIndex(_ path: String, to folderFD: Int32, folderPath: String) throws {
        let source = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard source >= 0 else { throw SystemError("open", path: path) }
        defer { close(source) }
        let copy = openat(folderFD, indexName, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard copy >= 0 else { throw SystemError("openat", path: "\(folderPath)/\(indexName)") }
        defer { close(copy) }
        if TarixIndexPackage.isPackage(source) {  // `<url>.tarix`: the database inside a gzip'd tar
            do {
                try TarixIndexPackage.unpack(source, sourceName: path, to: copy, outputName: "\(folderPath)/\(indexName)")
            } catch {
                unlinkat(folderFD, indexName, 0)
                throw error
            }
        } else {
            try Self.copy(FileByteSource(fd: source, name: path), to: copy, name: "\(folderPath)/\(indexName)")
        }
    }

    /// For `verify`: nil when the folder `docsetPath` has no tarix store or its index agrees with its archive in
    /// full; else what is wrong.
    package static func check(docsetPath: String) -> String? {
        let resources = "\(docsetPath)/Contents/Resources"
        guard let folder = try? SafeDirectory.open(resources), folder.exists(archiveName) else { return nil }
        let archive: Int32
        do { archive = try folder.openFile(archiveName, O_RDONLY) } catch { return "\(error)" }
        defer { close(archive) }
        do {
            _ = try TarixVerifier.verify(
                archive: archive, archiveName: "\(resources)/\(archiveName)", indexPath: "\(resources)/\(indexName)")
            return nil
        } catch {
            return "tarix index does not match its archive: \(error)"
        }
    }

    /// A complete file's length (a row's offset past it is refused before the walk); nil for a download still
    /// growing (the walk ends before such a row).
    static func knownLength(_ source: any ByteSource) -> Int64? {
        guard let file = source as? FileByteSource else { return nil }
        var st = stat()
        return fstat(file.fd, &st) == 0 ? Int64(st.st_size) : nil
    }

    /// Copies `source` from offset 0 to `output`, 1 MiB at a time.
    static func copy(_ source: any ByteSource, to output: Int32, name: String) throws(SystemError) {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        var offset: Int64 = 0
        while true {
            let n = try source.readAt(offset: offset, into: buffer)
            if n == 0 { return }
            offset += Int64(n)
            var written = 0
            while written < n {
                let w = write(output, buffer.baseAddress! + written, n - written)
                if w < 0, errno == EINTR { continue }
                if w < 0 { throw SystemError("write", path: name) }
                written += w
            }
        }
    }
}

extension ArchiveEntryMetadata {
    /// A tar record as extraction's rules (`EntryPolicy`) judge an entry libarchive reports; nil for a pax global
    /// header (libarchive applies it, reporting no entry).
    init?(_ record: TarRecord) {
        let kind: Kind
        switch record.kind {
        case .regular, .sparse: kind = .regular
        case .directory: kind = .directory
        case .symlink(let target): kind = .symlink(target: target)
        case .hardlink(let target): kind = .hardlink(target: target)
        case .globalHeader: return nil
        case .other(let flag):
            switch flag {
            case UInt8(ascii: "3"): kind = .characterDevice
            case UInt8(ascii: "4"): kind = .blockDevice
            case UInt8(ascii: "6"): kind = .fifo
            default: kind = .regular  // as libarchive reads an unknown type; the store's policy refuses it
            }
        }
        self.init(
            path: record.path, kind: kind, permissions: UInt32(truncatingIfNeeded: record.mode) & 0o7777,
            size: record.size)
    }
}
