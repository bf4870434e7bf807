/// Why ``InstalledDocset/contents(of:maximumBytes:)`` refused or failed to read a page.
///
/// The swift-service-lifecycle pattern: compare the kind with the static members (`error == .outsideDocset`), keep
/// a `default:` branch; ``docset``, ``page`` and ``message`` say what and why.
public struct DocumentError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of error: compare it with the static members (`error.kind == .notFound`); new kinds may be added
    /// (keep a `default:` branch). Its ``description`` is a stable machine-readable name (`not_found`).
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        /// The machine-readable name.
        public let description: String
        private init(_ name: String) { description = name }
        /// `invalid_path`.
        public static let invalidPath = Kind("invalid_path")
        /// `outside_docset`.
        public static let outsideDocset = Kind("outside_docset")
        /// `not_found`.
        public static let notFound = Kind("not_found")
        /// `not_regular_file`.
        public static let notRegularFile = Kind("not_regular_file")
        /// `too_large`.
        public static let tooLarge = Kind("too_large")
        /// `io`.
        public static let io = Kind("io")
    }

    /// The kind of error (``Kind``).
    public let kind: Kind
    /// The docset's name.
    public let docset: String
    /// The page path as given (control characters escaped).
    public let page: String
    /// What is wrong, for people.
    public let message: String

    private init(_ code: Kind, docset: String = "", page: String = "", message: String = "") {
        self.kind = code
        self.docset = docset
        self.page = page
        self.message = message
    }

    package static func make(_ kind: Self, docset: String, page: String, message: String) -> Self {
        Self(kind.kind, docset: docset, page: page, message: message)
    }

    /// The path is unusable as given: empty, absolute, with a `..` component, a NUL or control character, or
    /// longer than 4096 bytes (a component: 255).
    public static let invalidPath = Self(.invalidPath)
    /// Resolving the path would leave the docset (a symlink pointing outside it, or to an absolute path).
    public static let outsideDocset = Self(.outsideDocset)
    /// No file by that path.
    public static let notFound = Self(.notFound)
    /// A folder, FIFO, socket or device: only regular files are read.
    public static let notRegularFile = Self(.notRegularFile)
    /// Larger than the `maximumBytes` asked for.
    public static let tooLarge = Self(.tooLarge)
    /// A system call failed (permissions, I/O).
    public static let io = Self(.io)

    /// Same kind (the details are not compared).
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.kind == rhs.kind }

    /// Hashes the kind only, like ``==(_:_:)``.
    public func hash(into hasher: inout Hasher) { hasher.combine(kind) }

    /// `docset: page: message`.
    public var description: String { "\(docset): \(page): \(message)" }
}
