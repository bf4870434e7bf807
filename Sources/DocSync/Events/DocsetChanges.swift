internal import DocSyncSupport

/// The changes ``SyncEngine/changes(since:)`` returns, oldest first: an async sequence that reads the root's change
/// log once, at its first `next()`, on the library's pool of blocking threads, then hands the changes out without
/// suspending — no task switch, lock or allocation per change (a whole log of 100k changes iterates in milliseconds).
///
/// Each iteration reads the log anew. Iterating throws ``ChangeLogError`` (an unknown or expired cursor says to
/// rescan); a cancelled task's iteration ends (`next()` returns nil).
public struct DocsetChanges: AsyncSequence, Sendable {
    /// A change.
    public typealias Element = DocsetChange
    /// ``ChangeLogError``, or `CancellationError` when the read could not start.
    public typealias Failure = any Error

    let root: String
    let cursor: String?

    /// An iterator that reads the log at its first `next()`.
    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(root: root, cursor: cursor) }

    /// Reads the log at its first `next()`, then hands out what it read.
    public struct AsyncIterator: AsyncIteratorProtocol {
        /// A change.
        public typealias Element = DocsetChange
        /// ``ChangeLogError``, or `CancellationError` when the read could not start.
        public typealias Failure = any Error

        private let root: String
        private let cursor: String?
        /// nil until the log is read.
        private var changes: [DocsetChange]?
        private var next = 0

        init(root: String, cursor: String?) {
            self.root = root
            self.cursor = cursor
        }

        /// The next change (nil: none left, or the task is cancelled).
        public mutating func next() async throws -> DocsetChange? {
            if changes == nil { changes = try await Self.read(root: root, since: cursor) }
            return take()
        }

        /// The next change (nil: none left, or the task is cancelled), without leaving `actor` but to read the log.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws -> DocsetChange? {
            if changes == nil { changes = try await Self.read(root: root, since: cursor) }
            return take()
        }

        private mutating func take() -> DocsetChange? {
            guard let changes, next < changes.count, !Task.isCancelled else {
                changes = []  // done: the read's memory goes now
                next = 0
                return nil
            }
            defer { next += 1 }
            return changes[next]
        }

        private static func read(root: String, since cursor: String?) async throws -> [DocsetChange] {
            try await BlockingPool.shared.perform(
                refused: { ChangeLogError(kind: .unreadable, message: "change log not read: \($0)") }
            ) { () throws(ChangeLogError) in try SyncEngine.readChanges(root: root, since: cursor) }
        }
    }
}
