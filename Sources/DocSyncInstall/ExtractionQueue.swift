import Foundation

/// One unit of work handed from the reader thread to the writer thread.
enum ExtractionItem: Sendable {
    /// A new entry; `data` is its first (for small files, only) block of bytes.
    case begin(PlannedEntry, data: [UInt8], complete: Bool)
    /// More bytes of the file begun last.
    case more([UInt8], complete: Bool)

    var byteCount: Int {
        switch self {
        case .begin(_, let data, _), .more(let data, _): data.count + 128
        }
    }
}

/// A blocking single-producer, single-consumer queue bounded in bytes, with a shared failure that stops both sides.
///
/// `@unchecked Sendable` is sound: every stored property is read and written only while `condition` is locked.
final class ExtractionQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private let capacity: Int
    private var items: [ExtractionItem] = []
    private var bytes = 0
    private var finished = false
    private var failure: InstallError?

    init(capacityBytes: Int) { capacity = capacityBytes }

    /// Appends a batch, waiting while the queue is full. False once either side has failed.
    func push(_ batch: [ExtractionItem], bytes batchBytes: Int) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while failure == nil && bytes > 0 && bytes + batchBytes > capacity { condition.wait() }
        guard failure == nil else { return false }
        items.append(contentsOf: batch)
        bytes += batchBytes
        condition.broadcast()
        return true
    }

    /// The producer is done.
    func finish() {
        condition.lock()
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    /// Takes everything queued, waiting while empty; nil when finished and drained, or failed.
    func take() -> [ExtractionItem]? {
        condition.lock()
        defer { condition.unlock() }
        while failure == nil && items.isEmpty && !finished { condition.wait() }
        guard failure == nil, !items.isEmpty else { return nil }
        let batch = items
        items = []
        bytes = 0
        condition.broadcast()
        return batch
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
