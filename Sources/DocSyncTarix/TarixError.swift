/// Why a tarix archive or index could not be built, trusted or read. Names the file or record at fault.
package struct TarixError: Error, Sendable, Equatable, CustomStringConvertible {
    private enum Code: String, Sendable {
        case io
        case corruptArchive = "corrupt_archive"
        case badIndex = "bad_index"
        case unsafePath = "unsafe_path"
        case unsupportedEntry = "unsupported_entry"
        case notFound = "not_found"
        case tooLarge = "too_large"
        case notFlushed = "not_flushed"
    }

    private let code: Code
    /// The file, record or path at fault.
    package let subject: String
    /// What is wrong with it.
    package let message: String

    private init(_ code: Code, _ subject: String, _ message: String) {
        self.code = code
        self.subject = subject
        self.message = message
    }

    /// A stable machine-readable kind: `io`, `corrupt_archive`, `bad_index`, `unsafe_path`, `unsupported_entry`,
    /// `not_found`, `too_large` or `not_flushed`.
    package var kind: String { code.rawValue }

    /// True for `notFlushed` (the builder re-encodes instead of failing).
    package var isNotFlushed: Bool { code == .notFlushed }

    package var description: String { "\(subject): \(message)" }

    /// A system call failed on `subject`.
    package static func io(_ subject: String, _ message: String) -> Self { .init(.io, subject, message) }
    /// The gzip or tar stream is damaged, truncated or not a tar.
    package static func corruptArchive(_ subject: String, _ message: String) -> Self {
        .init(.corruptArchive, subject, message)
    }
    /// The index disagrees with the archive, or is not a tarix index.
    package static func badIndex(_ subject: String, _ message: String) -> Self { .init(.badIndex, subject, message) }
    /// A path that extraction would refuse (absolute, `..`, NUL, outside the docset folder...).
    package static func unsafePath(_ subject: String, _ message: String) -> Self {
        .init(.unsafePath, subject, message)
    }
    /// An entry the store cannot hold (links, devices, sparse files, case-colliding names).
    package static func unsupportedEntry(_ subject: String, _ message: String) -> Self {
        .init(.unsupportedEntry, subject, message)
    }
    /// No document by that path.
    package static func notFound(_ subject: String) -> Self { .init(.notFound, subject, "not in the tarix index") }
    /// A record or header larger than the limits allow.
    package static func tooLarge(_ subject: String, _ message: String) -> Self { .init(.tooLarge, subject, message) }
    /// The archive is not flushed at every record (it must be re-encoded to be indexed).
    package static func notFlushed(_ subject: String, _ message: String) -> Self {
        .init(.notFlushed, subject, message)
    }
}
