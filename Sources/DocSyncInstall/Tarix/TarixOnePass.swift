import DocSyncSupport

#if canImport(Glibc)
    import Glibc
#endif

/// The installer's side of a tarix install done in one pass over an archive — a file, or a download still growing
/// (every read waits for its bytes): the store builder (`TarixStoreBuilder/onePass`) walks the archive once —
/// inflating, indexing, checking or re-encoding — and hands this object every byte it reads and every record with its
/// data. Here the bytes are hashed (and, for an archive kept as it is, copied into `tarix.tgz`; a re-encoding builder
/// writes `tarix.tgz` itself, through `storeArchiveFD`), and every record is judged by extraction's rules
/// (`EntryPolicy`, Documents left to the store) and the few outside `Contents/Resources/Documents/` written by a
/// `TreeWriter` into the staged docset, recorded in the manifest as the extraction would record them.
///
/// The store's files are created in a staging folder of their own (`folderFD`), moved into the docset's
/// `Contents/Resources` once the pass succeeded. Used by one thread.
package final class TarixOnePass {
    /// The archive, read from offset 0.
    package let archive: any ByteSource
    /// The archive's name for messages.
    package let archiveName: String
    /// The folder the builder creates `tarixIndex.db` in (this object creates `tarix.tgz` there).
    package let folderFD: Int32
    /// The folder's path, for messages.
    package let folderPath: String
    /// True when the builder re-encodes the archive into `storeArchiveFD` (the archive is not flushed at every
    /// record); false when the archive is kept as it is (its bytes are copied there as they are read).
    package let reencodes: Bool
    /// The first error of the installing side (a refused entry, a failed write): the install fails with it,
    /// whatever error the builder's walk then reports.
    package private(set) var failure: InstallError?

    private var policy: EntryPolicy
    private let writer: TreeWriter
    private let writeback: EarlyWriteback
    private let block: UnsafeMutableRawBufferPointer
    private var blockUsed = 0
    /// The regular file whose data comes next: bytes still due, whether its first item was handed over, its hash.
    private var file: (entry: PlannedEntry, left: Int64, begun: Bool, hash: SHA256?)?
    private var produced: Int64 = 0
    private var archiveHash = SHA256()
    private let copyFD: Int32
    /// Bytes of the archive read (and, unless re-encoding, copied) so far.
    private(set) var readBytes: Int64 = 0

    static let blockBytes = 1 << 20
    static var archiveFileName: String { String(TarixStoreResult.files[0].split(separator: "/").last!) }

    init(
        archive: any ByteSource, archiveName: String, folder: DirectoryHandle, staging: DirectoryHandle,
        recorder: ManifestRecorder, limits: InstallLimits, archiveBytes: Int64?, reencodes: Bool = false
    ) throws(InstallError) {
        self.archive = archive
        self.reencodes = reencodes
        self.archiveName = archiveName
        folderFD = folder.fd
        folderPath = folder.path
        let flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC
        do { copyFD = try folder.base.openFile(Self.archiveFileName, flags) } catch { throw .io(error) }
        policy = EntryPolicy(limits: limits, archiveBytes: archiveBytes)
        policy.skipsDocuments = true
        writer = TreeWriter(rootFD: staging.fd, rootPath: staging.path, recorder: recorder)
        writeback = EarlyWriteback(directoryFD: staging.fd)
        block = .allocate(byteCount: Self.blockBytes, alignment: 4096)
    }

    deinit {
        writeback.stop()
        block.deallocate()
        close(copyFD)
    }

    /// The store's `tarix.tgz` (created empty in `folderFD`), for a re-encoding builder to write.
    package var storeArchiveFD: Int32 { copyFD }

    /// The next bytes of the archive file: hashed and, unless re-encoding, appended to the store's copy. False: stop
    /// (see `failure`).
    package func archiveBytes(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guarded { () throws(InstallError) in
            archiveHash.update(bytes)
            if !reencodes {
                do throws(SystemError) {
                    try LinuxFS.writeAll(copyFD, bytes, path: "\(folderPath)/\(Self.archiveFileName)")
                } catch {
                    throw .io(error)
                }
            }
            readBytes += Int64(bytes.count)
            // Re-encoding, the store's archive grows with what is read (about 1.5x): early writeback keeps pace.
            writeback.wrote(bytes.count)
        }
    }

    /// The next record of the archive, judged as extraction judges it; anything accepted outside the documents is
    /// created (a regular file's bytes follow through `entryData`). False: stop (see `failure`).
    package func entry(_ metadata: ArchiveEntryMetadata) -> Bool {
        guarded { () throws(InstallError) in
            if let file { throw .unreadableArchive("\(file.entry.archivePath): \(file.left) bytes of data missing") }
            guard let entry = try policy.admit(metadata) else { return }
            guard case .file = entry.action else {
                try writer.apply(.begin(entry, data: 0..<0, complete: true), block: block)
                return
            }
            file = (entry, metadata.size ?? 0, false, SHA256())
            if metadata.size ?? 0 == 0 { try handOver(complete: true) }
        }
    }

    /// The next bytes of the record last passed to `entry` (its data, without the tar padding). False: stop (see
    /// `failure`).
    package func entryData(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard file != nil else { return failure == nil }  // a file left to the store, a directory, a skipped entry
        return guarded { () throws(InstallError) in
            guard var current = file else { return }
            guard Int64(bytes.count) <= current.left else {
                throw .rejected(
                    entry: current.entry.archivePath,
                    rule: .sizeMismatch(declared: current.left, actual: Int64(bytes.count)))
            }
            produced += Int64(bytes.count)
            if let rule = policy.checkProduced(totalBytes: produced, consumedBytes: readBytes) {
                throw .rejected(entry: current.entry.archivePath, rule: rule)
            }
            current.hash?.update(bytes)
            current.left -= Int64(bytes.count)
            file = current
            var rest = bytes
            while !rest.isEmpty {
                let n = min(rest.count, block.count - blockUsed)
                block.baseAddress!.advanced(by: blockUsed).copyMemory(from: rest.baseAddress!, byteCount: n)
                blockUsed += n
                rest = UnsafeRawBufferPointer(rebasing: rest[n...])
                if blockUsed == block.count || (rest.isEmpty && current.left == 0) {
                    try handOver(complete: rest.isEmpty && current.left == 0)
                }
            }
        }
    }

    /// Writes the block's bytes of the current file (its first item begins it).
    private func handOver(complete: Bool) throws(InstallError) {
        guard let current = file else { return }
        let range = 0..<blockUsed
        let hash = complete ? current.hash : nil
        try writer.apply(
            current.begun
                ? .more(range, complete: complete, hash: hash)
                : .begin(current.entry, data: range, complete: complete, hash: hash),
            block: block)
        file?.begun = true
        blockUsed = 0
        if complete { file = nil }
    }

    /// After the builder's walk succeeded: closes the tree. Returns what an extraction would have returned (the
    /// archive's digest: of the bytes read, and copied unless re-encoding, in this pass). `archiveBytes`: the
    /// archive's length (the file's, or the verified download's), which the bytes read must match.
    func finish(archiveBytes: Int64) throws(InstallError) -> ExtractionResult {
        if let file { throw .unreadableArchive("\(file.entry.archivePath): \(file.left) bytes of data missing") }
        try writer.finish()
        guard archiveBytes == readBytes else {
            throw .unreadableArchive("\(archiveName): read \(readBytes) of its \(archiveBytes) bytes")
        }
        return ExtractionResult(
            entryCount: policy.entryCount, fileCount: writer.fileCount, directoryCount: writer.directoryCount,
            bytesWritten: writer.bytesWritten, archiveDigest: archiveHash.finalize())
    }

    /// Runs `body` unless an earlier call failed; keeps its error as `failure`. False when it failed.
    private func guarded(_ body: () throws(InstallError) -> Void) -> Bool {
        if failure != nil { return false }
        do { try body() } catch {
            failure = error
            return false
        }
        return true
    }
}
