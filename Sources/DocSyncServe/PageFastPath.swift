import HTTPTypes
import Hummingbird
import NIOCore

/// What the server does for a request it can answer on the event loop, without a task: a warm page
/// (``Routes/warmPage(_:headers:)``) with every header the async route would send (`X-Content-Type-Options`,
/// `Date`, `Server`, `Content-Length`), counted and logged the same way. Anything else is the async route's.
final class PageFastPath: Sendable {
    let routes: Routes
    let log: AccessLog?
    let counters: ServeCounters
    let date = HTTPDate()

    static let noSniff = HTTPField(name: HTTPField.Name("X-Content-Type-Options")!, value: "nosniff")
    static let server = HTTPField(name: .server, value: "docsync")

    init(routes: Routes, log: AccessLog?, counters: ServeCounters) {
        self.routes = routes
        self.log = log
        self.counters = counters
    }

    /// The answer's head and body (nil for HEAD and bodiless answers), or nil when the async route must answer.
    func answer(_ request: HTTPRequest, remote: () -> String) -> (head: HTTPResponse, body: ByteBuffer?)? {
        guard request.method == .get || request.method == .head, let target = request.path,
            target.utf8.count <= Routes.maximumTargetBytes, target.utf8.starts(with: "/d/".utf8)
        else { return nil }
        let start = ContinuousClock.now
        // The path is the target up to its query, as the async route's `request.uri.path` reads it.
        let utf8 = target.utf8
        let end = utf8.firstIndex(of: UInt8(ascii: "?")) ?? utf8.endIndex
        let raw = Substring(utf8[utf8.index(utf8.startIndex, offsetBy: 3)..<end])
        guard var answer = routes.warmPage(raw, headers: request.headerFields) else { return nil }
        let length = answer.contentLength
        answer.headers.append(HTTPField(name: .contentLength, value: String(length)))
        answer.headers.append(Self.noSniff)
        answer.headers.append(date.field())
        answer.headers.append(Self.server)
        log?.record(method: request.method, target: target, remote: remote(), status: answer.status.code, bytes: length)
        counters.record(.pages, status: answer.status.code, duration: ContinuousClock.now - start)
        let head = HTTPResponse(status: answer.status, headerFields: answer.headers)
        return (head, request.method == .head ? nil : answer.body)
    }
}
