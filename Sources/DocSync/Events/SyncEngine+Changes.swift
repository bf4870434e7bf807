// The root's change log for indexing backends: what changed since a cursor, and following it.

import Foundation
package import DocSyncInstall
internal import DocSyncSupport

extension SyncEngine {
    /// The changes recorded in the root's change log after `cursor` (nil: every change the log keeps), oldest first;
    /// each carries the cursor to resume after it. Reads only: a user who may only read the root can call it.
    /// Iterating throws ``ChangeLogError`` (an unknown or expired cursor says to rescan).
    ///
    /// The log is read once, at the first `next()`, on the library's pool of blocking threads; the changes are then
    /// handed out in the consuming task without suspending (``DocsetChanges``: 100k changes in milliseconds).
    public func changes(since cursor: String? = nil) -> DocsetChanges {
        DocsetChanges(root: configuration.root, cursor: cursor)
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

    /// ``changes(since:)`` handed to `body` one by one as each line is read, on a worker thread (`docsync changes`
    /// writes 100k lines with neither an array of changes nor a hop between threads per change); after `body`
    /// returns false it is not called again.
    package func forEachChange(since cursor: String?, _ body: @escaping @Sendable (DocsetChange) -> Bool)
        async throws(ChangeLogError)
    {
        let root = configuration.root
        try await WorkerThread.run(name: "docsync-changes") { () throws(ChangeLogError) in
            var going = true
            do {
                _ = try ChangeLogReader(root: root).read(since: try Self.parse(cursor), reserve: { _ in }) {
                    if going { going = body(Self.change($0, epoch: $1)) }
                }
            } catch {
                throw Self.libraryError(error)
            }
        }
    }

    /// `docsync changes --json` without `--follow`: the JSON line of each change after `cursor`, as
    /// ``ChangeJSONLines`` writes the ``DocsetChange`` ``changes(since:)`` would make of it, but made straight from
    /// the log's bytes (no change value, no `String` per field), handed to `write` in chunks of about 64 KiB (false:
    /// stop). What was made before an error is written before it is thrown. Blocks the calling thread (it reads the
    /// log): call it off the concurrency pool.
    package func writeChangesJSON(since cursor: String?, _ write: (UnsafeBufferPointer<UInt8>) -> Bool)
        throws(ChangeLogError)
    {
        let chunk = 1 << 16
        var buffer: [UInt8] = []
        buffer.reserveCapacity(chunk + 4096)
        var going = true
        var epochBytes: [UInt8] = []
        do {
            let reader = ChangeLogReader(root: configuration.root)
            _ = try reader.readLines(since: try Self.parse(cursor)) { line, epoch in
                if epochBytes.isEmpty { epochBytes = Array(epoch.utf8) }
                epochBytes.withUnsafeBufferPointer { ChangeJSONLines.append(line, epoch: $0, to: &buffer) }
                if buffer.count >= chunk {
                    going = buffer.withUnsafeBufferPointer(write)
                    buffer.removeAll(keepingCapacity: true)
                }
                return going
            }
        } catch {
            if going && !buffer.isEmpty { _ = buffer.withUnsafeBufferPointer(write) }
            throw Self.libraryError(error)
        }
        if going && !buffer.isEmpty { _ = buffer.withUnsafeBufferPointer(write) }
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

    /// The changes after `cursor`, each made as its line is read (one array, no record kept beside it).
    static func readChanges(root: String, since cursor: String?) throws(ChangeLogError) -> [DocsetChange] {
        var changes: [DocsetChange] = []
        do {
            let reader = ChangeLogReader(root: root)
            _ = try reader.read(since: try parse(cursor), reserve: { changes.reserveCapacity($0) }) {
                changes.append(change($0, epoch: $1))
            }
        } catch {
            throw libraryError(error)
        }
        return changes
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
        DocsetChange(
            cursor: ChangeCursor.text(epoch: epoch, sequence: record.sequence), docset: record.docset,
            kind: DocsetChange.Kind(record.kind),
            from: record.from?.version, to: record.to?.version, fromVersionID: record.from?.folder,
            toVersionID: record.to?.folder, at: Date(timeIntervalSince1970: Double(record.at) / 1000))
    }
}
