import Foundation

/// A whole HTTP response held in memory: for small documents such as feeds, never for archives.
package struct HTTPResponse: Sendable {
    package var head: HTTPResponseHead
    package var body: [UInt8]
    package var effectiveURL: String
}

/// Errors of `HTTPClient.get(_:maxBodyBytes:)`.
package enum HTTPClientError: Error, Sendable, Equatable, CustomStringConvertible {
    case transport(HTTPTransportError)
    case bodyTooLarge(url: String, limit: Int)
    case noResponse(url: String)
    case cancelled(url: String)

    package var description: String {
        switch self {
        case .transport(let error): "\(error)"
        case .bodyTooLarge(let url, let limit): "\(url): response body exceeds the limit of \(limit) bytes"
        case .noResponse(let url): "\(url): no HTTP response"
        case .cancelled(let url): "\(url): cancelled"
        }
    }
}

/// Plain GETs of small documents, e.g. feeds, with conditional request headers supplied by the caller, through a
/// transport passed in (SwiftPM's `HTTPClient(implementation:)` pattern): libcurl by default, an in-memory one in
/// tests. Archives take the same transport through `DownloadConfiguration.transport`.
package struct HTTPClient: Sendable {
    /// How requests reach the network.
    package var transport: HTTPTransport

    /// A client whose requests go through `transport` (libcurl unless a caller, such as a test, passes another).
    package init(transport: HTTPTransport = .curl) {
        self.transport = transport
    }

    /// GETs `request.url`, keeping at most `maxBodyBytes` of body. Any status is returned; judge it yourself.
    package func get(_ request: HTTPRequest, maxBodyBytes: Int) async throws(HTTPClientError) -> HTTPResponse {
        let collector = Collector(limit: maxBodyBytes)
        let result = await transport.perform(request, collector)
        switch result.ending {
        case .complete:
            guard let head = collector.finalHead else { throw .noResponse(url: request.url) }
            return HTTPResponse(head: head, body: collector.body, effectiveURL: result.effectiveURL)
        case .abortedByReceiver: throw .bodyTooLarge(url: request.url, limit: maxBodyBytes)
        case .cancelled: throw .cancelled(url: request.url)
        case .failed(let error): throw .transport(error)
        }
    }

    private final class Collector: HTTPResponseReceiver {
        let limit: Int
        var finalHead: HTTPResponseHead?
        var body: [UInt8] = []

        init(limit: Int) { self.limit = limit }

        func head(_ head: HTTPResponseHead) {
            guard !head.isInterim else { return }
            finalHead = head
            body.removeAll(keepingCapacity: true)  // a redirect's body is never part of the answer
        }

        func body(_ chunk: UnsafeRawBufferPointer) -> Bool {
            guard body.count + chunk.count <= limit else { return false }
            body.append(contentsOf: chunk)
            return true
        }
    }
}
