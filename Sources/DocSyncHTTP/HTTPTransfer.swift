/// Receives one transfer's responses as they arrive, on the transfer's own thread.
///
/// `head(_:)` is called for every complete response head libcurl sees — redirects and 1xx interim responses
/// included — so a receiver must judge only the last one before body bytes. `body(_:)` gets the final response's
/// body; returning false aborts the transfer before anything else is delivered (nothing of that chunk is kept).
public protocol HTTPResponseReceiver: AnyObject {
    func head(_ head: HTTPResponseHead)
    func body(_ chunk: UnsafeRawBufferPointer) -> Bool
}

/// How a transfer ended at the transport level. HTTP statuses are not errors here: the receiver judges them.
public struct HTTPTransferResult: Sendable, Equatable {
    public enum Ending: Sendable, Equatable {
        /// The response ended as the transport expected (the body may still be wrong: the receiver decides).
        case complete
        /// The receiver refused a body chunk.
        case abortedByReceiver
        /// The task was cancelled.
        case cancelled
        /// A transport failure; `transient` tells whether trying again can help.
        case failed(HTTPTransportError)
    }

    public var ending: Ending
    /// Status of the final response (0 when none arrived).
    public var status: Int
    /// The URL of the final response, after redirects.
    public var effectiveURL: String
    public var bodyBytes: Int64
    /// Connections the transfer opened (0: it reused a kept one, see `HTTPConnection`).
    public var newConnections = 1

    public init(ending: Ending, status: Int, effectiveURL: String, bodyBytes: Int64) {
        self.ending = ending
        self.status = status
        self.effectiveURL = effectiveURL
        self.bodyBytes = bodyBytes
    }
}

/// A transport failure reported by libcurl, classified for retry decisions.
public struct HTTPTransportError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        case resolve, connect, tls, timeout, stall, closedEarly, tooManyRedirects, badURL, protocolNotAllowed,
            tlsCertificate, redirectRefused, other
    }

    public var kind: Kind
    public var code: Int32
    public var message: String
    public var url: String

    public init(kind: Kind, code: Int32, message: String, url: String) {
        self.kind = kind
        self.code = code
        self.message = message
        self.url = url
    }

    /// Worth retrying (possibly on another mirror): DNS, connect, timeouts, stalls, dropped connections.
    public var isTransient: Bool {
        switch kind {
        case .resolve, .connect, .timeout, .stall, .closedEarly, .tls, .other: true
        case .tooManyRedirects, .badURL, .protocolNotAllowed, .tlsCertificate, .redirectRefused: false
        }
    }

    /// libcurl's message, with what to do about it for the errors a user can fix (an untrusted certificate, a URL
    /// that is neither http nor https).
    public var explanation: String {
        switch kind {
        case .tlsCertificate:
            "TLS certificate not accepted: \(message) (for a private certificate authority set [network] ca_file, "
                + "fetch --ca-file or CURL_CA_BUNDLE)"
        case .protocolNotAllowed: "refused: only http:// and https:// URLs are allowed (\(message))"
        default: message
        }
    }

    public var description: String { "\(url): \(explanation) (\(kind.rawValue), curl error \(code))" }
}
