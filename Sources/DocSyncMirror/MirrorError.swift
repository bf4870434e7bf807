import DocSyncSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A publish, bundle or import that failed, naming the file or docset at fault.
package struct MirrorError: Error, Sendable, CustomStringConvertible, Equatable {
    private enum Code: Sendable, Equatable { case system, checksum, bundle }
    private let code: Code
    /// What went wrong, naming the path or docset.
    package let description: String

    /// A system call failed on a path of the mirror's tree.
    package static func system(_ call: String, _ path: String, errno code: Int32) -> MirrorError {
        MirrorError(code: .system, description: "\(path): \(call): \(String(cString: strerror(code)))")
    }

    /// A file-system call failed on the mirror's tree (a planted symlink is named as such).
    static func system(_ error: SystemError) -> MirrorError {
        MirrorError(code: .system, description: "\(error)")
    }

    /// An archive's bytes do not hash to the published SHA-256.
    package static func checksum(_ path: String, expected: String, actual: String) -> MirrorError {
        MirrorError(code: .checksum, description: "\(path): SHA-256 is \(actual), the manifest says \(expected)")
    }

    /// A bundle that is not one docsync wrote (or is damaged).
    package static func bundle(_ path: String, _ reason: String) -> MirrorError {
        MirrorError(code: .bundle, description: "\(path): \(reason)")
    }

    /// True for bad data (a checksum mismatch, a damaged bundle), false for a failed system call: its exit status.
    package var isDataError: Bool { code != .system }

    package static func == (a: MirrorError, b: MirrorError) -> Bool { a.code == b.code }
}
