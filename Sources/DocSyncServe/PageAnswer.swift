import HTTPTypes
import Hummingbird
import NIOCore

/// A page's answer as the page route builds it: status, headers and bytes (nil: no body). The async route turns
/// it into a `Response`; the event-loop fast path (``PageChannelHandler``) writes it to the channel itself.
struct PageAnswer: Sendable {
    var status: HTTPResponse.Status
    var headers: HTTPFields
    var body: ByteBuffer?

    /// The body's length (what `Content-Length` says, for GET and HEAD alike).
    var contentLength: Int { body?.readableBytes ?? 0 }

    /// As a Hummingbird response (its `Content-Length` set from the body, as for every response).
    var response: Response {
        Response(status: status, headers: headers, body: body.map { ResponseBody(byteBuffer: $0) } ?? ResponseBody())
    }
}
