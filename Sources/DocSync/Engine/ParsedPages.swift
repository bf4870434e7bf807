internal import DocSyncFeed
internal import DocSyncSupport

/// Pages read and parsed on a thread of their own (`FullTextIndexing`), handed to the index writer on the caller's
/// thread through a queue of at most ``capacityBytes`` of text: parsing one page overlaps writing the previous
/// ones. The producer stops at the next page once the consumer cancels; `waitUntilFinished` waits for it, so no
/// thread outlives the build.
///
/// `@unchecked Sendable`: every mutable property is read and written only while holding `lock`.
final class ParsedPages: @unchecked Sendable {
    enum Item {
        case page(path: String, text: VisibleText)
        case skipped(path: String, reason: String)
    }

    /// Text queued at most (bytes), bounding memory whatever the pages hold.
    static let capacityBytes = 2 << 20

    private let lock = ConditionLock(conditions: 2)  // 0: an item or the end is there; 1: there is room
    private var items: [Item] = []
    private var head = 0
    private var bytes = 0
    private var finished = false
    private var cancelled = false
    private var failure: (any Error)?

    /// Starts reading and parsing every page of the docset folder `path`.
    static func start(docsetPath path: String, limits: VisibleTextLimits) -> ParsedPages {
        let queue = ParsedPages()
        WorkerThread.start(name: "docsync-fulltext-parse", stackSize: 8 << 20) {
            var failure: (any Error)?
            do {
                try FullTextPages.each(docsetPath: path, maximumBytes: limits.maximumPageBytes) { page, contents in
                    let item: Item
                    switch contents {
                    case .tooLarge(let size):
                        let reason = VisibleTextError.tooLarge(Int(size), limit: limits.maximumPageBytes).message
                        item = .skipped(path: page, reason: reason)
                    case .unreadable(let reason):
                        item = .skipped(path: page, reason: reason)
                    case .bytes(let bytes):
                        do throws(VisibleTextError) {
                            item = .page(path: page, text: try VisibleTextReader.read(bytes, limits: limits))
                        } catch {
                            item = .skipped(path: page, reason: error.message)
                        }
                    }
                    guard queue.push(item) else { throw CancellationError() }
                }
            } catch is CancellationError {
            } catch {
                failure = error
            }
            queue.finish(failure)
        }
        return queue
    }

    /// The next item; nil at the end (then `failure` says whether the pages were all read).
    func pop() -> Item? {
        lock.withLock {
            while head == items.count, !finished { lock.wait(on: 0) }
            guard head < items.count else { return nil }
            let item = items[head]
            head += 1
            if head > 256 {
                items.removeFirst(head)
                head = 0
            }
            bytes -= Self.size(item)
            lock.broadcast(1)
            return item
        }
    }

    /// Why reading the pages stopped early (after `pop` returned nil).
    var error: (any Error)? { lock.withLock { failure } }

    /// Stops the producer at its next page and waits until it has ended.
    func cancel() {
        lock.withLock {
            cancelled = true
            lock.broadcast(1)
            while !finished { lock.wait(on: 0) }
        }
    }

    private func push(_ item: Item) -> Bool {
        lock.withLock {
            while bytes > Self.capacityBytes, !cancelled { lock.wait(on: 1) }
            guard !cancelled else { return false }
            items.append(item)
            bytes += Self.size(item)
            lock.broadcast(0)
            return true
        }
    }

    private func finish(_ error: (any Error)?) {
        lock.withLock {
            failure = error
            finished = true
            lock.broadcast(0)
        }
    }

    private static func size(_ item: Item) -> Int {
        switch item {
        case .page(let path, let text): path.utf8.count + text.title.utf8.count + text.body.utf8.count
        case .skipped(let path, let reason): path.utf8.count + reason.utf8.count
        }
    }
}
