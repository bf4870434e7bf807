/// A test server (nginx, the fault server) could not start.
package struct TestServerError: Error, Sendable, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}
