import DocSyncSupport
import Foundation

/// Every entry of one docset's index, streamed: an `AsyncSequence` of ``DocsetEntry`` in index order.
///
/// ```swift
/// for try await entry in DocsetEntries(docset: indexed) {
///     print(entry.name, entry.type, entry.url)
/// }
/// ```
///
/// Reads `docSet.dsidx` read-only with an SQLite cursor on a thread of its own (never on Swift's cooperative pool),
/// handing over batches of ``batchSize`` entries with backpressure: at most two batches wait for the consumer, so
/// memory stays constant whatever the docset's size. Stopping the iteration early (or cancelling its task) stops
/// the reader. Nothing is written beside the docset; an index in WAL mode (not one docsync installed) is read
/// through a copy in `scratchDirectory`. Each iteration reads the index anew.
public struct DocsetEntries: AsyncSequence, Sendable {
    /// One entry.
    public typealias Element = DocsetEntry
    /// Why the index could not be read (typed: `for try await` rethrows it as such).
    public typealias Failure = DocsetIndexError

    /// The docset read.
    public let docset: IndexedDocset
    /// Where a WAL-mode index is copied to be read (docsync's `<state>/index`); nil: the system's temporary folder.
    public let scratchDirectory: String?
    /// Entries handed over at a time.
    public let batchSize: Int

    /// The entries of `docset`.
    public init(docset: IndexedDocset, scratchDirectory: String? = nil, batchSize: Int = 1024) {
        self.docset = docset
        self.scratchDirectory = scratchDirectory
        self.batchSize = Swift.max(1, batchSize)
    }

    /// Starts the reader thread.
    public func makeAsyncIterator() -> Iterator {
        let channel = EntryChannel(capacity: 2)
        let docset = docset
        let scratch = scratchDirectory ?? NSTemporaryDirectory()
        let batchSize = batchSize
        WorkerThread.start(name: "docsync-entries", stackSize: 1 << 20) {
            channel.produce(docset: docset, scratch: scratch, batchSize: batchSize)
        }
        return Iterator(handle: Iterator.Handle(channel))
    }

    /// Hands out the entries of one reading.
    public struct Iterator: AsyncIteratorProtocol {
        /// One entry.
        public typealias Element = DocsetEntry
        /// Why the index could not be read.
        public typealias Failure = DocsetIndexError

        /// Owned by the iterator alone: when the iteration is dropped, the reader is told to stop.
        final class Handle: Sendable {
            let channel: EntryChannel
            init(_ channel: EntryChannel) { self.channel = channel }
            deinit { channel.cancel() }
        }

        let handle: Handle
        @usableFromInline var batch: EntryBatch?
        @usableFromInline var position = 0
        @usableFromInline var count = 0
        private var finished = false

        init(handle: Handle) { self.handle = handle }

        /// The next entry; nil after the last one. Throws when the index cannot be read.
        public mutating func next() async throws(DocsetIndexError) -> DocsetEntry? {
            try await next(isolation: nil)
        }

        /// The next entry; nil after the last one. Throws when the index cannot be read. Inlinable: an entry of
        /// the batch at hand is handed out without a suspension point.
        @inlinable
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(DocsetIndexError)
            -> DocsetEntry?
        {
            if position < count, let batch {
                position += 1
                return batch.entry(position - 1)
            }
            guard try await nextBatch(isolation: actor), let batch else { return nil }
            position += 1
            return batch.entry(position - 1)
        }

        /// The next entry as bytes, valid until the next call (what `docsync entries --json` writes without a
        /// `String` per field); nil after the last one.
        package mutating func nextBytes(isolation actor: isolated (any Actor)? = #isolation)
            async throws(DocsetIndexError) -> EntryBytes?
        {
            if position >= count {
                guard try await nextBatch(isolation: actor) else { return nil }
            }
            position += 1
            return batch?.entryBytes(position - 1)
        }

        /// Waits for the reader's next non-empty batch; false after the last one.
        @usableFromInline
        mutating func nextBatch(isolation actor: isolated (any Actor)?) async throws(DocsetIndexError) -> Bool {
            while position >= count {
                if finished { return false }
                if Task.isCancelled {
                    handle.channel.cancel()
                    finished = true
                    return false
                }
                switch await handle.channel.take() {
                case .batch(let next):
                    batch = next
                    position = 0
                    count = next.count
                case .end:
                    finished = true
                    batch = nil
                    position = 0
                    count = 0
                    return false
                case .failure(let error):
                    finished = true
                    batch = nil
                    position = 0
                    count = 0
                    throw error
                }
            }
            return true
        }
    }
}

/// The bounded hand-over between the reader thread and the iterator: the reader waits (`ConditionLock`) while
/// `capacity` batches are waiting; the iterator waits (a continuation) while none is.
///
/// `@unchecked Sendable`: every mutable field is read and written only while holding `lock`.
final class EntryChannel: @unchecked Sendable {
    enum Item: Sendable {
        case batch(EntryBatch)
        case end
        case failure(DocsetIndexError)
    }

    private let lock = ConditionLock()
    private let capacity: Int
    private var items: [Item] = []
    private var waiting: CheckedContinuation<Item, Never>?
    private var cancelled = false

    init(capacity: Int) { self.capacity = capacity }

    /// The iterator stopped: the reader stops at its next batch.
    func cancel() {
        lock.withLock {
            cancelled = true
            items.removeAll()
            lock.broadcast()
        }
    }

    /// The next item, waiting for the reader without blocking a thread.
    func take() async -> Item {
        await withCheckedContinuation { continuation in
            lock.lock()
            if !items.isEmpty {
                let item = items.removeFirst()
                lock.broadcast()
                lock.unlock()
                continuation.resume(returning: item)
            } else {
                waiting = continuation
                lock.unlock()
            }
        }
    }

    /// Hands `item` over; waits while `capacity` items are queued. False when the iterator has stopped.
    private func put(_ item: Item) -> Bool {
        lock.lock()
        while !cancelled && waiting == nil && items.count >= capacity { lock.wait() }
        if cancelled {
            lock.unlock()
            return false
        }
        if let continuation = waiting {
            waiting = nil
            lock.unlock()
            continuation.resume(returning: item)
        } else {
            items.append(item)
            lock.unlock()
        }
        return true
    }

    /// The reader thread's body.
    func produce(docset: IndexedDocset, scratch: String, batchSize: Int) {
        var reader = EntryRowReader(docsetPath: docset.path, layout: DocsetLayout.read(docsetPath: docset.path))
        var batch = EntryBatch(entries: batchSize)
        let stop = DocsetIndexError.io(docset.name, "the reader stopped")
        do {
            _ = try SourceIndex.forEachRow(docset, scratchParent: scratch, maxEntries: .max, joinInMemory: true) {
                row throws(DocsetIndexError) in
                guard reader.append(row, to: batch) else { return }
                if batch.count == batchSize {
                    guard put(.batch(batch)) else { throw stop }
                    batch = EntryBatch(entries: batchSize)
                }
            }
        } catch {
            if error != stop { _ = put(.failure(error)) }
            return
        }
        if batch.count > 0, !put(.batch(batch)) { return }
        _ = put(.end)
    }
}
