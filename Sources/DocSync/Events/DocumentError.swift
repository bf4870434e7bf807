/// Why ``InstalledDocset/contents(of:maximumBytes:)`` refused or failed to read a page.
///
/// The swift-service-lifecycle pattern: compare the kind with the static members (`error == .outsideDocset`), keep
/// a `default:` branch; ``docset``, ``page`` and ``message`` say what and why.
public struct DocumentError: Error, Sendable, Hashable, CustomStringConvertible {
    private enum Code: String, Sendable, Hashable {
        case invalidPath = "invalid_path"
        case outsideDocset = "outside_docset"
        case notFound = "not_found"
        case notRegularFile = "not_regular_file"
        case tooLarge = "too_large"
        case io
    }

    private let code: Code
    /// The docset's name.
    public let docset: String
    /// The page path as given (control characters escaped).
    public let page: String
    /// What is wrong, for people.
    public let message: String

    private init(_ code: Code, docset: String = "", page: String = "", message: String = "") {
        self.code = code
        self.docset = docset
        self.page = page
        self.message = message
    }

    package static func make(_ kind: Self, docset: String, page: String, message: String) -> Self {
        Self(kind.code, docset: docset, page: page, message: message)
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

    /// A stable machine-readable kind: `invalid_path`, `outside_docset`, `not_found`, `not_regular_file`,
    /// `too_large` or `io`.
    public var kind: String { code.rawValue }

    /// Same kind (the details are not compared).
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }

    /// Hashes the kind only, like ``==(_:_:)``.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// `docset: page: message`.
    public var description: String { "\(docset): \(page): \(message)" }
}
