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
    static let queueBytes = 12 << 20
    static let chunkBytes = 1 << 20
    static let batchBytes = 256 << 10

    /// Blocks the calling thread (a dedicated one, never the cooperative pool) until done.
    static func extract(
        _ source: any ArchiveSource, into rootFD: Int32, rootPath: String, limits: InstallLimits
    ) throws(InstallError) -> ExtractionResult {
        let queue = ExtractionQueue(capacityBytes: queueBytes)
        let outcome = Mutex<(entries: Int, digest: SHA256.Digest?)>((0, nil))
        let done = DispatchSemaphore(value: 0)
        let reader = Thread {
            defer { done.signal() }
            do throws(InstallError) {
                let result = try read(source, limits: limits, into: queue)
                outcome.withLock { $0 = result }
                queue.finish()
            } catch {
                queue.fail(error)
            }
        }
        reader.name = "docsync-archive-reader"
        reader.stackSize = 1 << 20
        reader.start()

        let writer = TreeWriter(rootFD: rootFD, rootPath: rootPath)
        drain: while let batch = queue.take() {
            for item in batch {
                do throws(InstallError) {
                    try writer.apply(item)
                } catch {
                    queue.fail(error)
                    break drain
                }
            }
        }
        done.wait()
        do {
            try writer.finish()
        } catch {
            queue.fail(error)
        }
        if let error = queue.error { throw error }
        let (entries, digest) = outcome.withLock { $0 }
        return ExtractionResult(
            entryCount: entries, fileCount: writer.fileCount, directoryCount: writer.directoryCount,
            bytesWritten: writer.bytesWritten, archiveDigest: digest)
    }

    /// The reader thread's loop. Returns the entry count and the archive digest.
    private static func read(_ source: any ArchiveSource, limits: InstallLimits, into queue: ExtractionQueue)
        throws(InstallError) -> (Int, SHA256.Digest?)
    {
        let reader: ArchiveReader
        do { reader = try ArchiveReader(source: source) } catch { throw .unreadableArchive(error.message) }
        var policy = EntryPolicy(limits: limits, archiveBytes: source.byteCount)
        var batch: [ExtractionItem] = []
        var batchSize = 0
        var produced: Int64 = 0
        func emit(_ item: ExtractionItem) throws(InstallError) {
            batch.append(item)
            batchSize += item.byteCount
            if batchSize >= batchBytes {
                guard queue.push(batch, bytes: batchSize) else { throw queue.error ?? .unreadableArchive("stopped") }
                batch.removeAll(keepingCapacity: true)
                batchSize = 0
            }
        }
        while true {
            let metadata: ArchiveEntryMetadata?
            do { metadata = try reader.next() } catch { throw .unreadableArchive(error.message) }
            guard let metadata else { break }
            switch policy.evaluate(metadata) {
            case .skip: continue
            case .reject(let rule): throw .rejected(entry: metadata.displayPath, rule: rule)
            case .accept(let entry):
                guard case .file = entry.action else {
                    try emit(.begin(entry, data: [], complete: true))
                    continue
                }
                var total: Int64 = 0
                var first = true
                while true {
                    let want = metadata.size.map { Int(min(max($0 - total, 0), Int64(chunkBytes))) } ?? chunkBytes
                    let (data, end0) = try fill(reader, count: want, entry: metadata)
                    var end = end0
                    total += Int64(data.count)
                    if !end, let size = metadata.size, total >= size {
                        let extra = try fill(reader, count: 1, entry: metadata)
                        end = extra.0.isEmpty
                        if !end {
                            throw .rejected(
                                entry: metadata.displayPath, rule: .sizeMismatch(declared: size, actual: total + 1))
                        }
                    }
                    if end, let size = metadata.size, total != size {
                        throw .rejected(entry: metadata.displayPath, rule: .sizeMismatch(declared: size, actual: total))
                    }
                    produced += Int64(data.count)
                    if let rule = policy.checkProduced(totalBytes: produced) {
                        throw .rejected(entry: metadata.displayPath, rule: rule)
                    }
                    if total > limits.maxFileBytes {
                        throw .rejected(entry: metadata.displayPath, rule: .fileTooLarge(limit: limits.maxFileBytes))
                    }
                    try emit(first ? .begin(entry, data: data, complete: end) : .more(data, complete: end))
                    first = false
                    if end { break }
                }
            }
        }
        if !batch.isEmpty, !queue.push(batch, bytes: batchSize) { throw queue.error ?? .unreadableArchive("stopped") }
        do {
            return (policy.entryCount, try reader.finishDigest())
        } catch {
            throw .io(error)
        }
    }

    /// Reads up to `count` bytes of the current entry; `end` when the entry has no more.
    private static func fill(_ reader: ArchiveReader, count: Int, entry: ArchiveEntryMetadata)
        throws(InstallError) -> ([UInt8], end: Bool)
    {
        var failure: ArchiveFailure?
        var end = false
        let data = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            while initialized < count {
                do throws(ArchiveFailure) {
                    let n = try reader.readData(
                        into: UnsafeMutableRawBufferPointer(
                            rebasing: UnsafeMutableRawBufferPointer(buffer)[initialized...]))
                    if n == 0 {
                        end = true
                        return
                    }
                    initialized += n
                } catch {
                    failure = error
                    return
                }
            }
        }
        if let failure { throw .unreadableArchive("\(entry.displayPath): \(failure.message)") }
        return (data, end)
    }
}
