internal import DocSyncSupport

/// Why two versions of a docset could not be compared (``SyncEngine/diff(_:from:to:)``). Compare by kind:
/// `error.kind == .unknownVersion`.
///
/// | Kind | When |
/// |------|------|
/// | ``Kind-swift.struct/unknownDocset`` | the change log names no docset of that name |
/// | ``Kind-swift.struct/unknownVersion`` | the log does not name that version (never installed, or older than it keeps) |
/// | ``Kind-swift.struct/ambiguousVersion`` | several version folders have that version: name one by its version ID |
/// | ``Kind-swift.struct/notInstalled`` | no version given and the docset's last change removed it |
/// | ``Kind-swift.struct/noRecord`` | a version has no record of its content (installed before docsync kept one, or adopted) |
/// | ``Kind-swift.struct/unreadable`` | the log or a record cannot be read (the message names the path) |
public struct DocsetDiffError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure; new kinds may be added (keep a `default:` branch when switching).
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        private let code: String
        private init(_ code: String) { self.code = code }
        /// The change log names no docset of that name.
        public static let unknownDocset = Kind("unknown_docset")
        /// The change log does not name that version of the docset.
        public static let unknownVersion = Kind("unknown_version")
        /// Several version folders have that version.
        public static let ambiguousVersion = Kind("ambiguous_version")
        /// No version was given and the docset is not installed now.
        public static let notInstalled = Kind("not_installed")
        /// A version has no record of its content.
        public static let noRecord = Kind("no_record")
        /// The change log or a version's record cannot be read.
        public static let unreadable = Kind("unreadable")
        /// The kind's name (`unknown_docset`, `unknown_version`, …).
        public var description: String { code }
    }

    /// The kind of failure.
    public let kind: Kind
    /// What happened, for people (names the docset, the version and what to do).
    public let message: String

    init(kind: Kind, message: String) {
        self.kind = kind
        self.message = message
    }

    /// The ``message``.
    public var description: String { message }
}
