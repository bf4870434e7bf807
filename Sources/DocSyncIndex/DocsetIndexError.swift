import DocSyncSupport

/// Why one docset's index could not be read or searched. The other docsets still answer: `DocsetIndex.search`
/// reports these next to its hits instead of throwing.
public struct DocsetIndexError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of error: compare it with the static members (`error.kind == .invalidQuery`); new kinds may be added
    /// (keep a `default:` branch). Its ``description`` is a stable machine-readable name (`invalid_query`).
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        /// The machine-readable name.
        public let description: String
        private init(_ name: String) { description = name }
        /// `not_sqlite`.
        public static let notSQLite = Kind("not_sqlite")
        /// `unknown_schema`.
        public static let unknownSchema = Kind("unknown_schema")
        /// `too_large`.
        public static let tooLarge = Kind("too_large")
        /// `unreadable`.
        public static let unreadable = Kind("unreadable")
        /// `io`.
        public static let io = Kind("io")
        /// `invalid_query`.
        public static let invalidQuery = Kind("invalid_query")
        /// `unknown_keyword`.
        public static let unknownKeyword = Kind("unknown_keyword")
        /// `not_installed`.
        public static let notInstalled = Kind("not_installed")
    }

    /// The kind of error (``Kind``).
    public let kind: Kind
    /// The docset at fault (its name).
    public let docset: String
    /// What went wrong, in words (SQLite's or the system's message, or the limit exceeded).
    public let message: String

    private init(_ code: Kind, docset: String, message: String) {
        self.kind = code
        self.docset = docset
        self.message = message
    }

    /// `docset: docSet.dsidx: message`, or `search query: message` for an invalid query.
    public var description: String {
        switch kind {
        case .invalidQuery, .unknownKeyword, .notInstalled: "search query: \(message)"
        default: "\(docset): docSet.dsidx: \(message)"
        }
    }

    /// `docSet.dsidx` is not an SQLite database (or is corrupt).
    public static func notSQLite(_ docset: String, _ message: String) -> Self {
        .init(.notSQLite, docset: docset, message: message)
    }
    /// The database has neither Dash's `searchIndex(name, type, path)` nor Apple's Core Data token tables.
    public static func unknownSchema(_ docset: String) -> Self {
        .init(
            .unknownSchema, docset: docset,
            message: "neither a Dash searchIndex(name, type, path) table nor Core Data ZTOKEN tables")
    }
    /// More entries (or longer names) than docsync indexes.
    public static func tooLarge(_ docset: String, _ message: String) -> Self {
        .init(.tooLarge, docset: docset, message: message)
    }
    /// SQLite failed while reading the entries.
    public static func unreadable(_ docset: String, _ message: String) -> Self {
        .init(.unreadable, docset: docset, message: message)
    }
    /// The query cannot be run as given (``SearchQuery/problem``: a limit out of range, an overlong text, too many
    /// filters); ``docset`` is empty. Thrown before any docset is read.
    public static func invalidQuery(_ message: String) -> Self { .init(.invalidQuery, docset: "", message: message) }
    /// No docset searched has any of the query's keywords (``SearchQuery/keywords``); the message names them and
    /// the keywords the docsets have (`known`, sorted); ``docset`` is empty. Thrown before any docset is read.
    public static func unknownKeyword(_ asked: [String], known: [String]) -> Self {
        let list = asked.map { "\"\($0)\"" }.joined(separator: ", ")
        let existing = known.isEmpty ? "no installed docset has keywords" : "keywords: \(known.joined(separator: ", "))"
        return .init(
            .unknownKeyword, docset: "",
            message: "no docset has the keyword\(asked.count == 1 ? "" : "s") \(list) (\(existing))")
    }

    /// The query's ``SearchQuery/docsets`` names docsets that are not installed (or groups that do not exist):
    /// ``docset`` is the first of them, ``message`` names them all. Thrown before any docset is read.
    public static func notInstalled(_ names: [String]) -> Self {
        .init(
            .notInstalled, docset: names.first ?? "",
            message: "not installed: \(names.map(\.escapingControlCharacters).joined(separator: ", "))")
    }
    /// A file-system error (opening, copying, or writing the derived index in the state folder).
    public static func io(_ docset: String, _ message: String) -> Self { .init(.io, docset: docset, message: message) }
}
