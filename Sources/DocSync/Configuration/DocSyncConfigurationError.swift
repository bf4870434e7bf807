/// A configuration file that cannot be used, naming the file, the key and what is wrong.
///
/// Compare with the static members to tell the kinds apart (`error == .unknownKey`); equality looks at the kind
/// only, so new kinds can be added without breaking a client's `switch` (keep a `default:` branch).
public struct DocSyncConfigurationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of error: compare it with the static members (`error.kind == .unknownKey`); new kinds may be added
    /// (keep a `default:` branch). Its ``description`` is a stable machine-readable name (`unknown_key`).
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        /// The machine-readable name.
        public let description: String
        private init(_ name: String) { description = name }
        /// `invalid_file`.
        public static let invalidFile = Kind("invalid_file")
        /// `invalid_value`.
        public static let invalidValue = Kind("invalid_value")
        /// `unknown_key`.
        public static let unknownKey = Kind("unknown_key")
        /// `missing_value`.
        public static let missingValue = Kind("missing_value")
    }

    /// The kind of error (``Kind``).
    public let kind: Kind
    /// The configuration file.
    public let file: String
    /// Dotted key path, e.g. `network.retries` or `feed[2].url`; empty when the file as a whole is at fault.
    public let key: String
    /// What is wrong, for people.
    public let problem: String

    private init(_ code: Kind, file: String, key: String, problem: String) {
        self.kind = code
        self.file = file
        self.key = key
        self.problem = problem
    }

    /// An error about `key` (or, with an empty key, the whole file: unreadable, not UTF-8, not TOML).
    package init(file: String, key: String, problem: String) {
        self.init(key.isEmpty ? .invalidFile : .invalidValue, file: file, key: key, problem: problem)
    }

    /// A key docsync does not know (often a typo).
    package static func unknownKey(file: String, key: String) -> Self {
        Self(.unknownKey, file: file, key: key, problem: "unknown key")
    }

    /// A required key is absent.
    package static func missingValue(file: String, key: String, problem: String) -> Self {
        Self(.missingValue, file: file, key: key, problem: problem)
    }

    /// The file cannot be read, is not UTF-8, or is not valid TOML.
    public static let invalidFile = Self(.invalidFile, file: "", key: "", problem: "")
    /// A key has a value of the wrong type or out of range.
    public static let invalidValue = Self(.invalidValue, file: "", key: "", problem: "")
    /// The file has a key docsync does not know.
    public static let unknownKey = Self(.unknownKey, file: "", key: "", problem: "")
    /// A required key is missing.
    public static let missingValue = Self(.missingValue, file: "", key: "", problem: "")

    /// Same kind of error (the file, key and problem are not compared).
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.kind == rhs.kind }

    public func hash(into hasher: inout Hasher) { hasher.combine(kind) }

    /// `file: key: problem`.
    public var description: String { key.isEmpty ? "\(file): \(problem)" : "\(file): \(key): \(problem)" }
}
