import DocSyncSupport

/// Why `docsync serve` cannot start: a bad `listen` address, a non-loopback address not asked for, or a bind
/// failure. Names the configuration key at fault.
package struct ServeError: Error, CustomStringConvertible, Equatable {
    private enum Code: Equatable { case badAddress, remoteNotAllowed, cannotStart }
    private let code: Code
    /// What went wrong, naming the key or option at fault.
    package let message: String

    private init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// `listen` is not `HOST:PORT`.
    package static let badAddress = ServeError(.badAddress, "")
    /// A non-loopback address without `allow_remote`.
    package static let remoteNotAllowed = ServeError(.remoteNotAllowed, "")
    /// The server could not start (bind failure).
    package static let cannotStart = ServeError(.cannotStart, "")

    static func badAddress(_ text: String) -> ServeError {
        ServeError(
            .badAddress,
            "[serve] listen / --listen: \"\(text.escapingControlCharacters)\" is not HOST:PORT "
                + "(e.g. 127.0.0.1:8484, [::1]:8484)")
    }

    static func remoteNotAllowed(_ address: ListenAddress) -> ServeError {
        ServeError(
            .remoteNotAllowed,
            "[serve] listen / --listen: \(address) is not a loopback address; set [serve] allow_remote = true "
                + "(or --allow-remote) to serve other hosts, ideally behind nginx with TLS and auth (README)")
    }

    static func cannotStart(_ address: ListenAddress, _ reason: String) -> ServeError {
        ServeError(.cannotStart, "cannot listen on \(address) ([serve] listen): \(reason)")
    }

    /// Errors match by kind, not message (`catch ServeError.remoteNotAllowed`).
    package static func == (lhs: ServeError, rhs: ServeError) -> Bool { lhs.code == rhs.code }

    /// `~=` so `catch ServeError.badAddress` matches any message.
    package static func ~= (pattern: ServeError, value: any Error) -> Bool {
        (value as? ServeError)?.code == pattern.code
    }

    package var description: String { message }
}
