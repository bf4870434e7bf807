import Foundation
import GRDB
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Read-only connections to text indexes, kept open between the searches of one `DocsetIndex` (opening the
/// database and reading its schema was a fixed cost of every query), each with its prepared statements. A
/// connection (with `FullTextRanking`'s function) is lent to one search at a time (concurrent searches of one docset open more, up to
/// ``idlePerIndex`` kept); one whose file has been replaced or removed since (a rebuilt or pruned index: its path
/// names another inode, or none) is closed instead of lent. Thread-safe; nobody waits.
package final class FullTextConnections: Sendable {
    /// Idle connections kept per index file.
    static let idlePerIndex = 4
    /// Index files with idle connections kept, at most (the least recently used is closed first).
    static let capacity = 64

    private struct Idle {
        var connections: [DatabaseQueue]
        var device: UInt64
        var inode: UInt64
        var used: UInt64
    }

    private struct State {
        var idle: [String: Idle] = [:]
        var clock: UInt64 = 0
    }

    private let state = Mutex(State())

    package init() {}

    /// Runs `body` with a read-only connection to the index at `path`.
    package func withConnection<T>(path: String, _ body: (DatabaseQueue) throws -> T) throws -> T {
        var st = stat()
        guard stat(path, &st) == 0 else { throw DatabaseError(resultCode: .SQLITE_CANTOPEN, message: path) }
        let (device, inode) = (UInt64(st.st_dev), UInt64(st.st_ino))
        let lent: DatabaseQueue? = state.withLock { state in
            guard var idle = state.idle[path] else { return nil }
            guard idle.device == device, idle.inode == inode else {
                state.idle[path] = nil  // replaced: the old connections close as they are released
                return nil
            }
            let connection = idle.connections.popLast()
            state.idle[path] = idle.connections.isEmpty ? nil : idle
            return connection
        }
        let connection = try lent ?? Self.open(path)
        let result = try body(connection)
        let dropped: [DatabaseQueue] = state.withLock { state in
            state.clock += 1
            var idle = state.idle[path] ?? Idle(connections: [], device: device, inode: inode, used: 0)
            guard idle.device == device, idle.inode == inode, idle.connections.count < Self.idlePerIndex else {
                return [connection]
            }
            idle.connections.append(connection)
            idle.used = state.clock
            state.idle[path] = idle
            guard state.idle.count > Self.capacity,
                let oldest = state.idle.min(by: { $0.value.used < $1.value.used })?.key
            else { return [] }
            return state.idle.removeValue(forKey: oldest)?.connections ?? []
        }
        for queue in dropped { try? queue.close() }
        return result
    }

    private static func open(_ path: String) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.prepareDatabase { db in FullTextRanking.register(db) }
        return try DatabaseQueue(path: path, configuration: configuration)
    }
}
