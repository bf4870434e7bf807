#if canImport(Glibc)
    import Glibc
#endif

/// A failed system call: which call, on what, and errno with its text.
public struct SystemError: Error, Equatable, Sendable, CustomStringConvertible {
    public let operation: String
    public let path: String
    public let code: Int32

    public init(_ operation: String, path: String, code: Int32 = errno) {
        self.operation = operation
        self.path = path
        self.code = code
    }

    public var description: String { "\(operation) \(path): \(String(cString: strerror(code))) (errno \(code))" }
}
