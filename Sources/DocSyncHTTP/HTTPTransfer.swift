/// Receives one transfer's responses as they arrive, on the transfer's own thread.
///
/// `head(_:)` is called for every complete response head libcurl sees — redirects and 1xx interim responses
/// included — so a receiver must judge only the last one before body bytes. `body(_:)` gets the final response's
/// body; returning false aborts the transfer before anything else is delivered (nothing of that chunk is kept).
package protocol HTTPResponseReceiver: AnyObject {
    func head(_ head: HTTPResponseHead)
    func body(_ chunk: UnsafeRawBufferPointer) -> Bool
}

/// How a transfer ended at the transport level. HTTP statuses are not errors here: the receiver judges them.
package struct HTTPTransferResult: Sendable, Equatable {
    package enum Ending: Sendable, Equatable {
        /// The response ended as the transport expected (the body may still be wrong: the receiver decides).
        case complete
        /// The receiver refused a body chunk.
        case abortedByReceiver
        /// The task was cancelled.
        case cancelled
        /// A transport failure; `transient` tells whether trying again can help.
        case failed(HTTPTransportError)
    }

    package var ending: Ending
    /// Status of the final response (0 when none arrived).
    package var status: Int
    /// The URL of the final response, after redirects.
    package var effectiveURL: String
    package var bodyBytes: Int64
    /// Connections the transfer opened (0: it reused a kept one, see `HTTPConnection`).
    package var newConnections = 1

    package init(ending: Ending, status: Int, effectiveURL: String, bodyBytes: Int64) {
        self.ending = ending
        self.status = status
        self.effectiveURL = effectiveURL
        self.bodyBytes = bodyBytes
    }
}

/// A transport failure reported by libcurl, classified for retry decisions.
package struct HTTPTransportError: Error, Sendable, Equatable, CustomStringConvertible {
    package enum Kind: String, Sendable {
        case resolve, connect, tls, timeout, stall, closedEarly, tooManyRedirects, badURL, protocolNotAllowed,
            tlsCertificate, redirectRefused, libraryUnavailable, other
    }

    package var kind: Kind
    package var code: Int32
    package var message: String
    package var url: String

    package init(kind: Kind, code: Int32, message: String, url: String) {
        self.kind = kind
        self.code = code
        self.message = message
        self.url = url
    }

    /// Worth retrying (possibly on another mirror): DNS, connect, timeouts, stalls, dropped connections.
    package var isTransient: Bool {
        switch kind {
        case .resolve, .connect, .timeout, .stall, .closedEarly, .tls, .other: true
        case .tooManyRedirects, .badURL, .protocolNotAllowed, .tlsCertificate, .redirectRefused, .libraryUnavailable:
            false
        }
    }

    /// libcurl's message, with what to do about it for the errors a user can fix (an untrusted certificate, a URL
    /// that is neither http nor https).
    package var explanation: String {
        switch kind {
        case .tlsCertificate:
            "TLS certificate not accepted: \(message) (for a private certificate authority set [network] ca_file "
                + "or CURL_CA_BUNDLE)"
        case .protocolNotAllowed: "refused: only http:// and https:// URLs are allowed (\(message))"
        default: message
        }
    }

    package var description: String {
        kind == .libraryUnavailable
            ? "\(url): \(message)" : "\(url): \(explanation) (\(kind.rawValue), curl error \(code))"
    }
}
