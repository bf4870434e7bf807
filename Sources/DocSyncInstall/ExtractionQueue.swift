import DocSyncSupport
import Foundation

/// One unit of work handed from the reader thread to the writer thread. Data lives in the batch's block.
/// `hash`, on the item that completes a file: the SHA-256 of all its bytes, computed by the reader thread as it
/// filled the blocks (the writer thread, busier with file creation, only finalizes it for the manifest).
enum ExtractionItem {
    /// A new entry; `data` is its first (for small files, only) range of bytes in the block.
    case begin(PlannedEntry, data: Range<Int>, complete: Bool, hash: SHA256? = nil)
    /// More bytes of the file begun last.
    case more(Range<Int>, complete: Bool, hash: SHA256? = nil)
}

/// A block of bytes and the items whose data it holds. Blocks are allocated once per extraction and recycled, so
/// the hot loop allocates no file buffers (per-file arrays freed on another thread made glibc's arenas grow and
/// shrink with an mprotect per file).
///
/// `@unchecked Sendable` is sound: a batch is owned by one thread at a time — the reader fills it, hands it over
/// through `ExtractionQueue` (under its lock, which orders the writes before the writer's reads), the writer
/// drains it and hands it back the same way. The block is freed only by the queue, after both threads are done.
struct ExtractionBatch: @unchecked Sendable {
    let block: UnsafeMutableRawBufferPointer
    var used = 0
    var items: [ExtractionItem] = []

    var free: Int { block.count - used }
}

/// A blocking single-producer, single-consumer queue of batches over a fixed pool of blocks (memory is bounded by
/// `blocks × blockBytes`), with a shared failure that stops both sides.
///
/// `@unchecked Sendable` is sound: every stored property is read and written only while `condition` is locked.
final class ExtractionQueue: @unchecked Sendable {
    private let condition = ConditionLock()
    private var pool: [UnsafeMutableRawBufferPointer]
    private var all: [UnsafeMutableRawBufferPointer]
    private var queued: [ExtractionBatch] = []
    private var finished = false
    private var failure: InstallError?

    init(blocks: Int, blockBytes: Int) {
        all = (0..<blocks).map { _ in .allocate(byteCount: blockBytes, alignment: 4096) }
        pool = all
    }

    deinit { for block in all { block.deallocate() } }

    /// An empty batch, waiting for a block to be recycled; nil once either side has failed.
    func acquire() -> ExtractionBatch? {
        condition.lock()
        defer { condition.unlock() }
        while failure == nil && pool.isEmpty { condition.wait() }
        guard failure == nil else { return nil }
        var batch = ExtractionBatch(block: pool.removeLast())
        batch.items.reserveCapacity(256)
        return batch
    }

    /// Hands a filled batch to the writer.
    func submit(_ batch: ExtractionBatch) {
        condition.lock()
        queued.append(batch)
        condition.broadcast()
        condition.unlock()
    }

    /// Gives a drained batch's block back.
    func recycle(_ batch: ExtractionBatch) {
        condition.lock()
        pool.append(batch.block)
        condition.broadcast()
        condition.unlock()
    }

    /// The producer is done.
    func finish() {
        condition.lock()
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    /// Takes every queued batch, waiting while none is; nil when finished and drained, or failed.
    func take() -> [ExtractionBatch]? {
        condition.lock()
        defer { condition.unlock() }
        while failure == nil && queued.isEmpty && !finished { condition.wait() }
        guard failure == nil, !queued.isEmpty else { return nil }
        let batches = queued
        queued = []
        return batches
    }

    /// Records the first failure and wakes both sides.
    func fail(_ error: InstallError) {
        condition.lock()
        if failure == nil { failure = error }
        condition.broadcast()
        condition.unlock()
    }

    var error: InstallError? {
        condition.lock()
        defer { condition.unlock() }
        return failure
    }
}
