internal import DocSyncSupport

/// Why a root's change log could not be read from a cursor (``SyncEngine/changes(since:)``,
/// ``SyncEngine/follow(since:)``). Compare by kind: `error.kind == .expiredCursor`.
///
/// | Kind | When |
/// |------|------|
/// | ``Kind-swift.struct/unknownCursor`` | never handed out by this root's log (forged, another root's) — rescan |
/// | ``Kind-swift.struct/expiredCursor`` | changes after it are no longer kept (`[changes] keep`) — rescan |
/// | ``Kind-swift.struct/unreadable`` | the log cannot be read (the message names the path) |
public struct ChangeLogError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure; new kinds may be added (keep a `default:` branch when switching).
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        private let code: String
        private init(_ code: String) { self.code = code }
        /// The cursor was never handed out by this root's log.
        public static let unknownCursor = Kind("unknown_cursor")
        /// The changes after the cursor are no longer kept.
        public static let expiredCursor = Kind("expired_cursor")
        /// The log cannot be read.
        public static let unreadable = Kind("unreadable")
        /// The kind's name (`unknown_cursor`, `expired_cursor`, `unreadable`).
        public var description: String { code }
    }

    /// The kind of failure.
    public let kind: Kind
    /// What happened, for people: for a cursor, that the reader must rescan every docset and read changes from the
    /// cursor of a fresh read.
    public let message: String

    init(kind: Kind, message: String) {
        self.kind = kind
        self.message = message
    }

    /// The ``message``.
    public var description: String { message }

    static func unknown(_ cursor: String) -> Self {
        Self(
            kind: .unknownCursor,
            message: "change cursor \(cursor.escapingControlCharacters) is not one this root's change log handed out "
                + "(forged, another root's, or the log was made anew): rescan every docset, then read changes from "
                + "the log's current cursor")
    }

    static func expired(_ cursor: String) -> Self {
        Self(
            kind: .expiredCursor,
            message: "change cursor \(cursor.escapingControlCharacters) is older than what the change log keeps: "
                + "rescan every docset, then read changes from the log's current cursor")
    }
}
