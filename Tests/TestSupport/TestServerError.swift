/// A test server (nginx, the fault server) could not start.
public struct TestServerError: Error, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
