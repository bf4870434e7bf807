import HTTPTypes
import Hummingbird
import NIOCore
import NIOHTTP1

/// What the server does for a request it can answer on the event loop, without a task: a warm page
/// (``Routes/warmPage(_:conditions:)``) with every header the async route would send (`X-Content-Type-Options`,
/// `Date`, `Server`, `Content-Length`), counted and logged the same way. Anything else is the async route's.
///
/// It reads NIO's HTTP/1 request head as the decoder made it (no conversion to `HTTPRequest`, no `URLComponents`)
/// and renders the answer's head as bytes, ready for the socket: status line and fields in one buffer.
final class PageFastPath: Sendable {
    let routes: Routes
    let log: AccessLog?
    let counters: ServeCounters
    let date = HTTPDate()

    init(routes: Routes, log: AccessLog?, counters: ServeCounters) {
        self.routes = routes
        self.log = log
        self.counters = counters
    }

    /// The answer's head (status line and fields, up to the blank line) and body (nil for HEAD and bodiless
    /// answers), or nil when the async route must answer: only `GET`/`HEAD` of HTTP/1.1 under `/d/`.
    func answer(_ request: HTTPRequestHead, allocator: ByteBufferAllocator, remote: () -> String)
        -> (head: ByteBuffer, body: ByteBuffer?)?
    {
        let head = request.method == .HEAD
        guard request.method == .GET || head, request.version == .http1_1 else { return nil }
        let target = request.uri
        let utf8 = target.utf8
        guard utf8.count <= Routes.maximumTargetBytes, utf8.starts(with: "/d/".utf8) else { return nil }
        let start = ContinuousClock.now
        // The path is the target up to its query, as the async route's `request.uri.path` reads it.
        let end = utf8.firstIndex(of: UInt8(ascii: "?")) ?? utf8.endIndex
        let raw = Substring(utf8[utf8.index(utf8.startIndex, offsetBy: 3)..<end])
        guard let answer = routes.warmPage(raw, conditions: PageConditions(request.headers)) else { return nil }
        let length = answer.contentLength
        let method: HTTPRequest.Method = head ? .head : .get
        log?.record(method: method, target: target, remote: remote(), status: answer.status.code, bytes: length)
        counters.record(.pages, status: answer.status.code, duration: ContinuousClock.now - start)
        return (render(answer, length: length, allocator: allocator), head ? nil : answer.body)
    }

    /// `HTTP/1.1 <status>`, the answer's fields, `Content-Length`, `X-Content-Type-Options`, `Date`, `Server`.
    func render(_ answer: PageAnswer, length: Int, allocator: ByteBufferAllocator) -> ByteBuffer {
        var out = allocator.buffer(capacity: 512)
        switch answer.status.code {
        case 200: out.writeStaticString("HTTP/1.1 200 OK\r\n")
        case 304: out.writeStaticString("HTTP/1.1 304 Not Modified\r\n")
        case 206: out.writeStaticString("HTTP/1.1 206 Partial Content\r\n")
        default:
            out.writeStaticString("HTTP/1.1 ")
            out.writeString(String(answer.status.code))
            out.writeStaticString(" ")
            out.writeString(answer.status.reasonPhrase)
            out.writeStaticString("\r\n")
        }
        for field in answer.headers {
            out.writeString(field.name.rawName)
            out.writeStaticString(": ")
            out.writeString(field.value)
            out.writeStaticString("\r\n")
        }
        out.writeStaticString("Content-Length: ")
        out.writeString(String(length))
        out.writeStaticString("\r\nX-Content-Type-Options: nosniff\r\nDate: ")
        out.writeString(date.field().value)
        out.writeStaticString("\r\nServer: docsync\r\n\r\n")
        return out
    }
}
