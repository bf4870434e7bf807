#if canImport(Glibc)
    import Glibc
#endif

/// A failed system call: which call, on what, and errno with its text.
package struct SystemError: Error, Equatable, Sendable, CustomStringConvertible {
    package let operation: String
    package let path: String
    package let code: Int32

    package init(_ operation: String, path: String, code: Int32 = errno) {
        self.operation = operation
        self.path = path
        self.code = code
    }

    /// A symlink found where docsync expects its own file or folder: it is never followed, written through or
    /// deleted as if it were docsync's.
    package static func symlink(_ path: String) -> SystemError { SystemError(symlinkOperation, path: path, code: ELOOP) }

    static let symlinkOperation = "refusing symlink"
    static let notRegularOperation = "refusing non-regular file"

    /// A FIFO, device, socket or folder where docsync reads a file it did not write: never opened for reading (a
    /// FIFO would block forever, `/dev/zero` never ends). `code` is EISDIR for a folder, else EINVAL.
    package static func notRegularFile(_ path: String, code: Int32 = EINVAL) -> SystemError {
        SystemError(notRegularOperation, path: path, code: code)
    }

    /// True for `symlink(_:)` errors.
    package var isPlantedSymlink: Bool { operation == Self.symlinkOperation }

    package var description: String {
        if isPlantedSymlink {
            return "\(path) is a symlink where docsync expects its own file or folder; refusing to follow it "
                + "(remove the link to go on)"
        }
        if operation == Self.notRegularOperation {
            return "\(path) is not a regular file (a FIFO, device, socket or folder); refusing to read it"
        }
        return "\(operation) \(path): \(String(cString: strerror(code))) (errno \(code))"
    }
}
