// The root's change log for indexing backends: what changed since a cursor, and following it.

import Foundation
package import DocSyncInstall
internal import DocSyncSupport
import Synchronization

extension SyncEngine {
    /// The changes recorded in the root's change log after `cursor` (nil: every change the log keeps), oldest first;
    /// each carries the cursor to resume after it. Reads only: a user who may only read the root can call it.
    /// Throws ``ChangeLogError`` (an unknown or expired cursor says to rescan).
    ///
    /// The log is read once, at the first `next()`, on the library's pool of blocking threads; the changes are then
    /// handed out in the consuming task without a hop between threads per change (100k changes in milliseconds).
    public func changes(since cursor: String? = nil) -> AsyncThrowingStream<DocsetChange, any Error> {
        let root = configuration.root
        let batch = ChangeBatch()
        return AsyncThrowingStream(unfolding: {
            if let next = batch.next() { return next }
            guard !batch.isLoaded else { return nil }
            let read = try await BlockingPool.shared.perform(
                refused: { ChangeLogError(kind: .unreadable, message: "change log not read: \($0)") }
            ) { () throws(ChangeLogError) in try Self.readChanges(root: root, since: cursor) }
            batch.load(read)
            return batch.next()
        })
    }

    /// As ``changes(since:)``, then every change as it is made (woken by inotify, within milliseconds of the
    /// change), until the consuming task is cancelled or stops iterating.
    public func follow(since cursor: String? = nil) -> AsyncThrowingStream<DocsetChange, any Error> {
        let root = configuration.root
        return AsyncThrowingStream { continuation in
            let start: ChangeCursor?
            let follower: ChangeFollower
            do {
                start = try Self.parse(cursor)
                follower = try ChangeFollower(root: root)
            } catch {
                continuation.finish(throwing: Self.libraryError(error))
                return
            }
            continuation.onTermination = { _ in follower.stop() }
            WorkerThread.start(name: "docsync-follow") {
                do {
                    try follower.run(since: start) { records, epoch in
                        for record in records {
                            if case .terminated = continuation.yield(Self.change(record, epoch: epoch)) {
                                return false
                            }
                        }
                        return true
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: Self.libraryError(error))
                }
            }
        }
    }

    /// ``changes(since:)`` as one array, read on a worker thread (`docsync changes` prints 100k changes without an
    /// element-by-element hop between threads).
    package func changeList(since cursor: String?) async throws(ChangeLogError) -> [DocsetChange] {
        let root = configuration.root
        return try await WorkerThread.run(name: "docsync-changes") { () throws(ChangeLogError) in
            let batch = try Self.readChanges(root: root, since: cursor)
            return batch.records.map { Self.change($0, epoch: batch.epoch ?? "") }
        }
    }

    /// The cursor after the last change the root's log holds (nil: no change recorded yet): where a backend that
    /// has just scanned every docset starts following.
    public func changeCursor() async throws(ChangeLogError) -> String? {
        let root = configuration.root
        return try await WorkerThread.run(name: "docsync-changes") { () throws(ChangeLogError) in
            do {
                return try ChangeLogReader(root: root).head()?.text
            } catch {
                throw Self.libraryError(error)
            }
        }
    }

    static func readChanges(root: String, since cursor: String?) throws(ChangeLogError) -> ChangeLogReader.Batch {
        do {
            return try ChangeLogReader(root: root).read(since: try parse(cursor))
        } catch {
            throw libraryError(error)
        }
    }

    private static func parse(_ text: String?) throws(ChangeReadError) -> ChangeCursor? {
        guard let text else { return nil }
        guard let cursor = ChangeCursor(text: text) else { throw .unknownCursor(text) }
        return cursor
    }

    private static func libraryError(_ error: any Error) -> ChangeLogError {
        switch error as? ChangeReadError {
        case .unknownCursor(let text): return .unknown(text)
        case .expiredCursor(let text): return .expired(text)
        case .unreadable(let message): return ChangeLogError(kind: .unreadable, message: "change log: \(message)")
        case nil: return ChangeLogError(kind: .unreadable, message: "change log: \(error)")
        }
    }

    /// The public value of a record of the log with epoch `epoch`.
    package static func change(_ record: ChangeRecord, epoch: String) -> DocsetChange {
        let kind: DocsetChange.Kind
        switch record.kind {
        case .installed: kind = .installed
        case .updated: kind = .updated
        case .removed: kind = .removed
        }
        return DocsetChange(
            cursor: ChangeCursor(epoch: epoch, sequence: record.sequence).text, docset: record.docset, kind: kind,
            from: record.from?.version, to: record.to?.version, fromVersionID: record.from?.folder,
            toVersionID: record.to?.folder, at: Date(timeIntervalSince1970: Double(record.at) / 1000))
    }
}

/// The records one ``SyncEngine/changes(since:)`` read, handed out one by one (`Mutex`: the consuming task is the only
/// caller, one `next()` at a time, but the stream's closure must be `Sendable`).
private final class ChangeBatch: Sendable {
    private let state = Mutex<(records: [ChangeRecord], epoch: String, next: Int, loaded: Bool)>(([], "", 0, false))

    var isLoaded: Bool { state.withLock { $0.loaded } }

    func load(_ batch: ChangeLogReader.Batch) {
        state.withLock { $0 = (batch.records, batch.epoch ?? "", 0, true) }
    }

    /// The next change (nil: none left, or not loaded yet).
    func next() -> DocsetChange? {
        state.withLock { state in
            guard state.next < state.records.count else {
                state.records = []
                return nil
            }
            defer { state.next += 1 }
            return SyncEngine.change(state.records[state.next], epoch: state.epoch)
        }
    }
}
