import DocSyncSupport
import Foundation
import Synchronization

/// What an extraction produced.
struct ExtractionResult: Sendable {
    var entryCount: Int
    var fileCount: Int
    var directoryCount: Int
    var bytesWritten: Int64
    /// SHA-256 of the archive bytes, when they were read sequentially (nil: the caller hashes the file).
    var archiveDigest: SHA256.Digest?
}

/// Unpacks an archive into a directory with two threads: a reader thread decodes (libarchive: inflate + format) and
/// judges entries with the `EntryPolicy`; the calling thread creates files with a `TreeWriter`. A queue bounded in
/// bytes joins them, so decompression overlaps file creation and memory stays flat.
enum Extractor {
    /// Memory bound: `blocks × blockBytes` of file data in flight (plus libarchive's own buffers).
    static let blocks = 12
    static let blockBytes = 1 << 20
    static let maxItemsPerBatch = 1024

    /// Blocks the calling thread (a dedicated one, never the cooperative pool) until done. `hashing`: compute
    /// ``ExtractionResult/archiveDigest`` (false when the caller already knows the archive's SHA-256). `recorder`:
    /// where the writer records the tree's manifest as it creates it.
    static func extract(
        _ source: any ArchiveSource, into rootFD: Int32, rootPath: String, limits: InstallLimits, hashing: Bool = true,
        recorder: ManifestRecorder? = nil, skipsDocuments: Bool = false
    ) throws(InstallError) -> ExtractionResult {
        let queue = ExtractionQueue(blocks: blocks, blockBytes: blockBytes)
        let outcome = Mutex<(entries: Int, digest: SHA256.Digest?)>((0, nil))
        let done = WorkCounter()
        let hashingFiles = recorder != nil
        done.enter()
        WorkerThread.start(name: "docsync-archive-reader", stackSize: 1 << 20) {
            defer { done.leave() }
            do throws(InstallError) {
                let result = try ArchiveReader.withUTF8Locale { () throws(InstallError) in
                    try read(
                        source, limits: limits, hashing: hashing, hashingFiles: hashingFiles,
                        skipsDocuments: skipsDocuments, into: queue)
                }
                outcome.withLock { $0 = result }
                queue.finish()
            } catch {
                queue.fail(error)
            }
        }

        let writer = TreeWriter(rootFD: rootFD, rootPath: rootPath, recorder: recorder)
        // The tree's data goes to disk while it is extracted, not all in the syncfs before publishing.
        // Extracted: a last pass starts and the install goes on beside it (a failed tree is not written back).
        let writeback = EarlyWriteback(directoryFD: rootFD)
        var extracted = false
        defer { if extracted { writeback.finish() } else { writeback.stop() } }
        drain: while let batches = queue.take() {
            for batch in batches {
                writeback.wrote(batch.used)
                for item in batch.items {
                    do throws(InstallError) {
                        try writer.apply(item, block: batch.block)
                    } catch {
                        queue.fail(error)
                        source.cancel()  // a reader blocked on a download must not keep us waiting
                        break drain
                    }
                }
                queue.recycle(batch)
            }
        }
        done.waitUntilIdle()
        do {
            try writer.finish()
        } catch {
            queue.fail(error)
        }
        if let error = queue.error { throw error }
        extracted = true
        let (entries, digest) = outcome.withLock { $0 }
        return ExtractionResult(
            entryCount: entries, fileCount: writer.fileCount, directoryCount: writer.directoryCount,
            bytesWritten: writer.bytesWritten, archiveDigest: digest)
    }

    /// The reader thread's loop. Returns the entry count and the archive digest. `hashingFiles`: hash each file's
    /// bytes for the manifest (here, not on the writer thread: profiles put the writer — file creation in the
    /// kernel — on the critical path, 63 % of the CPU against the reader's 36 %).
    private static func read(
        _ source: any ArchiveSource, limits: InstallLimits, hashing: Bool, hashingFiles: Bool, skipsDocuments: Bool,
        into queue: ExtractionQueue
    )
        throws(InstallError) -> (Int, SHA256.Digest?)
    {
        let reader: ArchiveReader
        do { reader = try ArchiveReader(source: source, hashing: hashing) } catch {
            throw error.library.map(InstallError.libraryUnavailable) ?? .unreadableArchive(error.message)
        }
        var policy = EntryPolicy(limits: limits, archiveBytes: source.byteCount)
        policy.skipsDocuments = skipsDocuments
        let stopped = { () -> InstallError in queue.error ?? .unreadableArchive("stopped") }
        guard var batch = queue.acquire() else { throw stopped() }
        /// Hands the batch over and takes an empty one when fewer than `bytes` are free or it holds many items.
        func makeRoom(_ bytes: Int) throws(InstallError) {
            guard batch.free < bytes || batch.items.count >= maxItemsPerBatch else { return }
            queue.submit(batch)
            guard let next = queue.acquire() else { throw stopped() }
            batch = next
        }
        var probe: UInt8 = 0
        var produced: Int64 = 0
        while true {
            let metadata: ArchiveEntryMetadata?
            do { metadata = try reader.next() } catch { throw .unreadableArchive(error.message) }
            guard let metadata else { break }
            guard let entry = try policy.admit(metadata) else { continue }
            guard case .file = entry.action else {
                try makeRoom(0)
                batch.items.append(.begin(entry, data: 0..<0, complete: true))
                continue
            }
            var total: Int64 = 0
            var first = true
            var fileHash: SHA256? = hashingFiles ? SHA256() : nil
            while true {
                // Known size: the rest of the file, up to a block. Unknown (streamed zip): whatever fits.
                let want = metadata.size.map { Int(min(max($0 - total, 0), Int64(blockBytes))) } ?? (64 << 10)
                try makeRoom(want)
                let room = metadata.size == nil ? batch.free : want
                let start = batch.used
                var (count, end) = try fill(reader, into: batch.block, at: start, count: room, entry: metadata)
                batch.used += count
                total += Int64(count)
                if !end, let size = metadata.size, total >= size {
                    // One more read must report the entry's end.
                    let extra: Int
                    do {
                        extra = try withUnsafeMutableBytes(of: &probe) { buffer throws(ArchiveFailure) in
                            try reader.readData(into: buffer)
                        }
                    } catch {
                        throw .unreadableArchive("\(metadata.displayPath): \(error.message)")
                    }
                    end = extra == 0
                    if !end {
                        throw .rejected(
                            entry: metadata.displayPath, rule: .sizeMismatch(declared: size, actual: total + 1))
                    }
                }
                if end, let size = metadata.size, total != size {
                    throw .rejected(entry: metadata.displayPath, rule: .sizeMismatch(declared: size, actual: total))
                }
                produced += Int64(count)
                if let rule = policy.checkProduced(totalBytes: produced, consumedBytes: reader.bytesConsumed) {
                    throw .rejected(entry: metadata.displayPath, rule: rule)
                }
                if total > limits.maxFileBytes {
                    throw .rejected(entry: metadata.displayPath, rule: .fileTooLarge(limit: limits.maxFileBytes))
                }
                let range = start..<start + count
                fileHash?.update(UnsafeRawBufferPointer(rebasing: batch.block[range]))
                let hash = end ? fileHash : nil
                batch.items.append(
                    first
                        ? .begin(entry, data: range, complete: end, hash: hash)
                        : .more(range, complete: end, hash: hash))
                first = false
                if end { break }
            }
        }
        queue.submit(batch)
        do {
            return (policy.entryCount, try reader.finishDigest())
        } catch {
            throw .io(error)
        }
    }

    /// Reads up to `count` bytes of the current entry into `block` at `offset`; `end` when the entry has no more.
    private static func fill(
        _ reader: ArchiveReader, into block: UnsafeMutableRawBufferPointer, at offset: Int, count: Int,
        entry: ArchiveEntryMetadata
    ) throws(InstallError) -> (Int, end: Bool) {
        var filled = 0
        while filled < count {
            let n: Int
            do {
                n = try reader.readData(
                    into: UnsafeMutableRawBufferPointer(rebasing: block[(offset + filled)..<(offset + count)]))
            } catch {
                throw .unreadableArchive("\(entry.displayPath): \(error.message)")
            }
            if n == 0 { return (filled, true) }
            filled += n
        }
        return (filled, false)
    }
}
