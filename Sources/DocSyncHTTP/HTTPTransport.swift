/// Performs one HTTP request and delivers its heads and body to a receiver: the seam between the download
/// policies and the network, passed in the way SwiftPM's `HTTPClient` takes its implementation. Production code
/// uses `.curl`; tests pass a scripted transport, so schedulers and response checks run without sockets.
package struct HTTPTransport: Sendable {
    /// Runs `request`, calling the receiver's `head` and `body` on one thread, and reports how the transport ended.
    package var perform: @Sendable (_ request: HTTPRequest, _ receiver: any HTTPResponseReceiver) async -> HTTPTransferResult

    /// A transport made of `perform`.
    package init(
        perform: @escaping @Sendable (_ request: HTTPRequest, _ receiver: any HTTPResponseReceiver) async
            -> HTTPTransferResult
    ) {
        self.perform = perform
    }

    /// libcurl, one easy handle per request on a thread of its own (`Curl.perform`).
    package static let curl = HTTPTransport { request, receiver in await Curl.perform(request, receiver: receiver) }
}
