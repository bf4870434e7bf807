internal import DocSyncFeed
import DocSyncIndex
internal import DocSyncSupport

/// Pages read and parsed on a thread of their own (`FullTextIndexing`), with their `pairs` tokens
/// (`TextPairTokens`: the common words chosen on the first ``FullTextWriter/batchBytes`` of text, held until then
/// and announced by a `.pairWords` item before any page), handed to the index writer on the caller's thread through
/// a queue of at most ``capacityBytes`` of text: reading, parsing and tokenizing pages overlaps SQLite writing the
/// previous ones. The producer stops at the next page once the consumer cancels; `cancel` waits for it, so no thread
/// outlives the build.
///
/// `@unchecked Sendable`: every mutable property is read and written only while holding `lock`.
final class ParsedPages: @unchecked Sendable {
    enum Item {
        case page(path: String, text: VisibleText, pairs: String)
        case skipped(path: String, reason: String)
        /// The common and universal words of every page's `pairs` tokens: the first item but skipped pages.
        case pairWords(common: Set<String>, universal: [String])
    }

    /// Text queued at most (bytes), bounding memory whatever the pages hold.
    static let capacityBytes = 1 << 20
    /// Each side, once it has waited, sleeps until it can move this much (bytes queued for the consumer, room for
    /// the producer) or the end: the threads hand pages over in runs, not a wake-up (a context switch each side)
    /// per page whenever one of them is the faster.
    static let handoverBytes = capacityBytes / 4

    private let lock = ConditionLock(conditions: 2)  // 0: an item or the end is there; 1: there is room
    private var items: [Item] = []
    private var head = 0
    private var bytes = 0
    private var finished = false
    private var cancelled = false
    private var failure: (any Error)?
    /// Whether the consumer (`pop`) or the producer (`push`) is waiting: woken once a run is there.
    private var consumerWaits = false
    private var producerWaits = false

    /// Starts reading and parsing every page of the docset folder `path`.
    static func start(docsetPath path: String, limits: VisibleTextLimits) -> ParsedPages {
        let queue = ParsedPages()
        WorkerThread.start(name: "docsync-fulltext-parse", stackSize: 8 << 20) {
            var failure: (any Error)?
            do {
                let tokens = try TextPairTokens()
                // The common words' share follows the docset's size (`FullTextPairs.commonShare(pages:)`).
                let docsetPages = try FullTextPages.count(docsetPath: path)
                // The first pages, held until the common words are chosen on them.
                var first: [(path: String, text: VisibleText)]? = []
                var firstBytes = 0
                func send(_ path: String, _ text: VisibleText) throws {
                    let pairs = try tokens.tokens(title: text.title, body: text.body)
                    guard queue.push(.page(path: path, text: text, pairs: pairs)) else { throw CancellationError() }
                }
                func choose() throws {
                    guard let pages = first else { return }
                    first = nil
                    try tokens.choose(pages.map { ($0.text.title, $0.text.body) }, docsetPages: docsetPages)
                    let words = tokens.words
                    guard queue.push(.pairWords(common: words.common, universal: words.universal)) else {
                        throw CancellationError()
                    }
                    for page in pages { try send(page.path, page.text) }
                }
                try FullTextPages.each(docsetPath: path, maximumBytes: limits.maximumPageBytes) { page, contents in
                    let skipped: String
                    switch contents {
                    case .tooLarge(let size):
                        skipped = VisibleTextError.tooLarge(Int(size), limit: limits.maximumPageBytes).message
                    case .unreadable(let reason):
                        skipped = reason
                    case .bytes(let bytes):
                        let text: VisibleText
                        do throws(VisibleTextError) {
                            text = try VisibleTextReader.read(bytes, limits: limits)
                        } catch {
                            // Without libxml2 no page can be read: the build fails (and is tried again later)
                            // instead of an index of skipped pages.
                            if error.isLibraryUnavailable { throw error }
                            guard queue.push(.skipped(path: page, reason: error.message)) else {
                                throw CancellationError()
                            }
                            return
                        }
                        guard first != nil else { return try send(page, text) }
                        first?.append((page, text))
                        firstBytes += page.utf8.count + text.title.utf8.count + text.body.utf8.count
                        if firstBytes >= FullTextWriter.batchBytes { try choose() }
                        return
                    }
                    guard queue.push(.skipped(path: page, reason: skipped)) else { throw CancellationError() }
                }
                try choose()
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
            if head == items.count, !finished {
                consumerWaits = true
                while bytes < Self.handoverBytes, !finished { lock.wait(on: 0) }
                consumerWaits = false
            }
            guard head < items.count else { return nil }
            let item = items[head]
            head += 1
            if head > 256 {
                items.removeFirst(head)
                head = 0
            }
            bytes -= Self.size(item)
            if producerWaits, bytes <= Self.capacityBytes - Self.handoverBytes { lock.broadcast(1) }
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
            if bytes > Self.capacityBytes, !cancelled {
                producerWaits = true
                while bytes > Self.capacityBytes - Self.handoverBytes, !cancelled { lock.wait(on: 1) }
                producerWaits = false
            }
            guard !cancelled else { return false }
            items.append(item)
            bytes += Self.size(item)
            if consumerWaits, bytes >= Self.handoverBytes { lock.broadcast(0) }
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
        case .page(let path, let text, let pairs):
            path.utf8.count + text.title.utf8.count + text.body.utf8.count + pairs.utf8.count
        case .skipped(let path, let reason): path.utf8.count + reason.utf8.count
        case .pairWords(let common, let universal): common.count * 16 + universal.count * 16
        }
    }
}
