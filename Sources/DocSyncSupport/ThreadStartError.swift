#if canImport(Glibc)
    import Glibc
#endif

/// The system refused a thread (`pthread_create` failed: `EAGAIN` at the process's or the user's thread limit, or
/// without memory for its stack). Blocking work that needed it was not run.
package struct ThreadStartError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The name the thread would have had.
    package let name: String
    /// `pthread_create`'s error number.
    package let code: Int32

    package init(name: String, code: Int32) {
        self.name = name
        self.code = code
    }

    /// `cannot start a thread (NAME): MESSAGE`.
    package var description: String {
        "cannot start a thread (\(name)): \(String(cString: strerror(code)))"
    }
}
