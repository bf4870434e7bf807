import Foundation

/// Why a sync could not run at all — the one error ``SyncEngine/sync(_:)``'s sequence throws. Per-docset and per-feed
/// failures never end a sync: they are ``SyncEvent``s carrying a ``SyncFailure``.
///
/// The swift-service-lifecycle pattern: the kind is private and compared through static members (`error == .busy`),
/// so a new kind never breaks a client's `switch` (keep a `default:` branch); the details are properties.
///
/// | Kind | When | Details |
/// |------|------|---------|
/// | ``busy`` | another sync holds the state folder's lock (see ``SyncOptions/wait``) | ``exclusion`` |
/// | ``exclusionUnavailable`` | the sync exclusion's flock file cannot be created, opened or locked | ``exclusion`` |
/// | ``preflight`` | `root`, `staging` or `state` cannot be used (names key and path) | ``preflightFailure`` |
/// | ``unknownDocset`` | ``SyncOptions/only`` names nothing offered or installed | ``unknownDocsets`` |
/// | ``configuration`` | the configuration cannot be used as written (e.g. `docsync.lock`) | ``message`` |
/// | ``rootUnreadable`` | the root folder cannot be listed | ``failure`` |
/// | ``cancelled`` | the consuming task was cancelled before the run could start | |
/// | ``other`` | anything else (the message says what) | |
public struct SyncError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of error: compare it with the static members (`error.kind == .busy`); new kinds may be added
    /// (keep a `default:` branch). Its ``description`` is a stable machine-readable name (`busy`).
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        /// The machine-readable name.
        public let description: String
        private init(_ name: String) { description = name }
        /// `busy`.
        public static let busy = Kind("busy")
        /// `preflight`.
        public static let preflight = Kind("preflight")
        /// `configuration`.
        public static let configuration = Kind("configuration")
        /// `cancelled`.
        public static let cancelled = Kind("cancelled")
        /// `other`.
        public static let other = Kind("other")
        /// `lock_unavailable`.
        public static let exclusionUnavailable = Kind("lock_unavailable")
        /// `unknown_docset`.
        public static let unknownDocset = Kind("unknown_docset")
        /// `root_unreadable`.
        public static let rootUnreadable = Kind("root_unreadable")
    }

    /// The kind of error (``Kind``).
    public let kind: Kind
    /// What happened, for people (one line per problem; names the config key and path when one is at fault).
    public let message: String
    /// The sync exclusion's details (the flock on `<state>/sync.lock`), for ``busy`` and ``exclusionUnavailable``.
    public let exclusion: SyncExclusionError?
    /// Every folder problem, for ``preflight``.
    public let preflightFailure: Preflight.Failure?
    /// The names that matched nothing and their nearest known names, for ``unknownDocset``.
    public let unknownDocsets: UnknownDocsetError?
    /// The failure value, for ``rootUnreadable`` (and ``other`` when one was thrown).
    public let failure: SyncFailure?

    private init(
        _ code: Kind, message: String, exclusion: SyncExclusionError? = nil,
        preflightFailure: Preflight.Failure? = nil,
        unknownDocsets: UnknownDocsetError? = nil, failure: SyncFailure? = nil
    ) {
        self.kind = code
        self.message = message
        self.exclusion = exclusion
        self.preflightFailure = preflightFailure
        self.unknownDocsets = unknownDocsets
        self.failure = failure
    }

    /// Another sync holds the sync exclusion.
    public static let busy = Self(.busy, message: "")
    /// The sync exclusion's flock file (`<state>/sync.lock`) could not be used.
    public static let exclusionUnavailable = Self(.exclusionUnavailable, message: "")
    /// The configured folders cannot be used.
    public static let preflight = Self(.preflight, message: "")
    /// A requested docset name matches nothing.
    public static let unknownDocset = Self(.unknownDocset, message: "")
    /// The configuration cannot be used as written.
    public static let configuration = Self(.configuration, message: "")
    /// The root folder cannot be read.
    public static let rootUnreadable = Self(.rootUnreadable, message: "")
    /// The run was cancelled before it started.
    public static let cancelled = Self(.cancelled, message: "")
    /// Anything else.
    public static let other = Self(.other, message: "")

    /// Same kind (the details are not compared).
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.kind == rhs.kind }

    /// Hashes the kind only, like ``==(_:_:)``.
    public func hash(into hasher: inout Hasher) { hasher.combine(kind) }

    /// The message.
    public var description: String { message }

    /// `error` as a sync error: itself, or the kind its type stands for.
    package init(_ error: any Error) {
        switch error {
        case let error as SyncError: self = error
        case let lock as SyncExclusionError:
            self.init(lock == .busy ? .busy : .exclusionUnavailable, message: lock.description, exclusion: lock)
        case let preflight as Preflight.Failure:
            self.init(.preflight, message: preflight.description, preflightFailure: preflight)
        case let unknown as UnknownDocsetError:
            self.init(.unknownDocset, message: unknown.description, unknownDocsets: unknown)
        case is LockFile.Failure, is DocSyncConfigurationError:
            self.init(.configuration, message: UserText.describe(error))
        case let failure as SyncFailure:
            self.init(failure.code == .io ? .rootUnreadable : .other, message: failure.description, failure: failure)
        case is CancellationError: self.init(.cancelled, message: "cancelled")
        default: self.init(.other, message: UserText.describe(error))
        }
    }
}
