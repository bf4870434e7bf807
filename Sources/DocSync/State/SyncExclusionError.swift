/// Why a sync (or a removal) could not take the state directory's lock: another sync holds it (``busy``), or the
/// lock file could not be used (``unavailable``).
///
/// Compare with the static members (`error == .busy`); equality looks at the kind only, so new kinds can be added
/// without breaking a client's `switch` (keep a `default:` branch).
public struct SyncExclusionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of error: compare it with the static members (`error.kind == .busy`); new kinds may be added
    /// (keep a `default:` branch). Its ``description`` is a stable machine-readable name (`busy`).
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        /// The machine-readable name.
        public let description: String
        private init(_ name: String) { description = name }
        /// `busy`.
        public static let busy = Kind("busy")
        /// `unavailable`.
        public static let unavailable = Kind("unavailable")
    }

    /// The kind of error (``Kind``).
    public let kind: Kind
    /// The lock file, `<state>/sync.lock`.
    public let path: String
    /// The pid of the process holding the lock, when it wrote one (``busy`` only).
    public let holder: String?
    /// What failed, for people (``unavailable`` only: the system call, the path and errno).
    public let detail: String

    private init(_ code: Kind, path: String, holder: String? = nil, detail: String = "") {
        self.kind = code
        self.path = path
        self.holder = holder
        self.detail = detail
    }

    /// Another docsync sync holds the lock (`sync --wait` queues behind it).
    public static let busy = Self(.busy, path: "")
    /// The lock file or the state directory could not be created, opened or locked.
    public static let unavailable = Self(.unavailable, path: "")

    package static func busy(path: String, holder: String?) -> Self { Self(.busy, path: path, holder: holder) }

    package static func unavailable(path: String, detail: String) -> Self {
        Self(.unavailable, path: path, detail: detail)
    }

    /// Same kind of error (the path and details are not compared).
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.kind == rhs.kind }

    public func hash(into hasher: inout Hasher) { hasher.combine(kind) }

    public var description: String {
        switch kind {
        case .busy:
            "another docsync sync is running (lock \(path)\(holder.map { ", pid \($0)" } ?? ""))"
        default: detail
        }
    }
}
