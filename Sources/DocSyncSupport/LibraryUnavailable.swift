/// A C library docsync loads on first use (libcurl for transfers, libarchive for archives, libcrypto for checksums) could
/// not be used: it is not installed, or it lacks a function docsync calls (an incompatible version). Raised by the first
/// call that needs the library, never at start-up. Compare by kind: `error.kind == .missingFunction`.
package struct LibraryUnavailable: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure.
    package struct Kind: Sendable, Hashable, CustomStringConvertible {
        private let code: String
        private init(_ code: String) { self.code = code }
        /// The library cannot be opened (not installed, unreadable, its own dependencies missing) or initialised.
        package static let notLoadable = Kind("not_loadable")
        /// The library lacks a function docsync calls.
        package static let missingFunction = Kind("missing_function")
        /// The kind's name (`not_loadable`, `missing_function`).
        package var description: String { code }
    }

    /// The kind of failure.
    package let kind: Kind
    /// The soname docsync opens, e.g. `libcurl.so.4`.
    package let library: String
    /// What docsync needs it for, e.g. `downloads`.
    package let purpose: String
    /// The missing function, for ``Kind-swift.struct/missingFunction``.
    package let function: String?
    /// The loader's reason (it names the library, and the function when one is missing).
    package let reason: String

    /// The loader's `reason`, and the missing `function` when that was why.
    package init(library: String, purpose: String, reason: String, function: String?) {
        kind = function != nil ? .missingFunction : .notLoadable
        self.library = library
        self.purpose = purpose
        self.function = function
        self.reason = reason
    }

    /// Runs a wrapper's C loader and throws what it reports: `load(buffer, size, missing)` returns NULL when the
    /// library is usable, else the reason (in its own storage or in `buffer`), with the missing function's name in
    /// `missing` (else NULL there).
    package static func check(
        _ library: String, for purpose: String,
        _ load: (UnsafeMutablePointer<CChar>, Int, UnsafeMutablePointer<UnsafePointer<CChar>?>) -> UnsafePointer<CChar>?
    ) throws(LibraryUnavailable) {
        let failure = withUnsafeTemporaryAllocation(of: CChar.self, capacity: 512) { buffer -> Self? in
            var missing: UnsafePointer<CChar>?
            guard let reason = load(buffer.baseAddress!, buffer.count, &missing) else { return nil }
            return Self(
                library: library, purpose: purpose, reason: String(cString: reason),
                function: missing.map { String(cString: $0) })
        }
        if let failure { throw failure }
    }

    /// `LIBRARY is needed for PURPOSE and cannot be used: REASON (install …)`.
    package var description: String {
        "\(library) is needed for \(purpose) and cannot be used: \(reason.escapingControlCharacters) (install the "
            + "package that provides \(library), or a version with the functions docsync calls)"
    }
}
