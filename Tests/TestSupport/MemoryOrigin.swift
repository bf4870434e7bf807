import DocSyncHTTP
import DocSyncSupport
import Foundation
import Synchronization

/// An HTTP origin held in memory and reached through `transport`, for tests whose subject is not the socket: the
/// same contract an origin such as nginx keeps — status, header fields, body; `ETag` and `Last-Modified` validators
/// with conditional GETs (304); single byte ranges with `If-Range` and `Content-Range` (206, 416); redirects followed
/// as `HTTPOptions` allow — with no socket and no process.
///
/// A path is served from what `serve`/`redirect` set, else from the file of that name under `root` (read when the
/// request arrives, so a test rewrites a file as it would for nginx), else 404; credentials in a URL
/// (`http://user:password@…`) are ignored, as nginx ignores them. URLs are `http://127.0.0.1:9/…`: a loopback host
/// (plain http stays plain, as with a local nginx) on the discard port, so a request that missed the seam and went
/// to libcurl fails loudly instead of reaching anything.
package final class MemoryOrigin: Sendable {
    /// One response the origin gives for a path.
    package struct Resource: Sendable {
        /// The status; a 200 gets validators, ranges and conditional requests, any other is sent as it is.
        package var status: Int
        /// Header fields sent with it (a `Last-Modified` here is the validator `If-Range` and `If-Modified-Since` see).
        package var headers: [(name: String, value: String)]
        /// The whole representation.
        package var body: [UInt8]

        /// A response of `status` with `body` and extra header fields (validators and length are added for 200s).
        package init(status: Int = 200, headers: [(name: String, value: String)] = [], body: [UInt8]) {
            self.status = status
            self.headers = headers
            self.body = body
        }
    }

    /// One request the origin answered, as an access log line.
    package struct LogEntry: Sendable, Equatable {
        /// The request's path (query dropped).
        package var path: String
        /// The request's `Range` field, `-` when none.
        package var range: String
        /// The status answered.
        package var status: Int
        /// Body bytes the receiver took.
        package var bodyBytes: Int64
    }

    /// The authority every URL of this origin uses.
    package static let authority = "http://127.0.0.1:9"

    /// A directory whose files are served by name (nil: only what `serve` set).
    package let root: String?
    private let state = Mutex(State())

    private struct State {
        var resources: [String: Resource] = [:]
        var log: [LogEntry] = []
    }

    /// An origin serving the files under `root` (if any) and what `serve` adds.
    package init(root: String? = nil) {
        self.root = root
    }

    /// `http://127.0.0.1:9/<path>`.
    package func url(_ path: String) -> String { "\(Self.authority)/\(path.drop { $0 == "/" })" }

    /// Serves `resource` at `path` (before any file of that name).
    package func serve(_ path: String, _ resource: Resource) {
        state.withLock { $0.resources[Self.normalized(path)] = resource }
    }

    /// Serves `body` at `path` with status 200.
    package func serve(_ path: String, body: [UInt8]) { serve(path, Resource(body: body)) }

    /// Answers `path` with a redirect (`status`, 302 by default) to `location`.
    package func redirect(_ path: String, to location: String, status: Int = 302) {
        serve(path, Resource(status: status, headers: [("Location", location)], body: []))
    }

    /// The requests answered so far, oldest first.
    package func accessLog() -> [LogEntry] { state.withLock { $0.log } }

    /// The transport that reaches this origin (pass it where `HTTPTransport.curl` would go).
    package var transport: HTTPTransport {
        HTTPTransport { [self] request, receiver in
            let box = ReceiverBox(receiver)
            // Receivers may block (a staging write waiting for its disk queue): on a thread of its own, like curl's.
            return await WorkerThread.run(name: "memory-origin") { self.perform(request, receiver: box.receiver) }
        }
    }

    private final class ReceiverBox: @unchecked Sendable {  // handed to one worker thread, used there only
        let receiver: any HTTPResponseReceiver
        init(_ receiver: any HTTPResponseReceiver) { self.receiver = receiver }
    }

    private func perform(_ request: HTTPRequest, receiver: any HTTPResponseReceiver) -> HTTPTransferResult {
        var url = request.url
        var redirects = 0
        while true {
            let address = Self.withoutUserInfo(url)
            guard address.hasPrefix(Self.authority + "/") || address == Self.authority else {
                let error = HTTPTransportError(
                    kind: .connect, code: 7, message: "MemoryOrigin serves only \(Self.authority)", url: url)
                return HTTPTransferResult(ending: .failed(error), status: 0, effectiveURL: url, bodyBytes: 0)
            }
            let path = Self.normalized(String(address.dropFirst(Self.authority.count)))
            let fields = Self.fields(request.headers)
            let (head, body) = respond(path: path, fields: fields)
            if head.isRedirect, request.options.followRedirects, let location = head.value("Location") {
                receiver.head(head)
                log(path, fields, head.status, 0)
                redirects += 1
                guard redirects <= request.options.maxRedirects else {
                    let error = HTTPTransportError(
                        kind: .tooManyRedirects, code: 47, message: "Maximum redirects followed", url: url)
                    return HTTPTransferResult(
                        ending: .failed(error), status: head.status, effectiveURL: url, bodyBytes: 0)
                }
                url = location.hasPrefix("/") ? Self.authority + location : location
                continue
            }
            receiver.head(head)
            var sent: Int64 = 0
            var ending = HTTPTransferResult.Ending.complete
            body.withUnsafeBytes { bytes in
                var offset = 0
                while offset < bytes.count {
                    let end = min(bytes.count, offset + 64 << 10)
                    guard receiver.body(UnsafeRawBufferPointer(rebasing: bytes[offset..<end])) else {
                        ending = .abortedByReceiver
                        return
                    }
                    sent += Int64(end - offset)
                    offset = end
                }
            }
            log(path, fields, head.status, sent)
            return HTTPTransferResult(ending: ending, status: head.status, effectiveURL: url, bodyBytes: sent)
        }
    }

    private func log(_ path: String, _ fields: [String: String], _ status: Int, _ bytes: Int64) {
        let entry = LogEntry(path: path, range: fields["range"] ?? "-", status: status, bodyBytes: bytes)
        state.withLock { $0.log.append(entry) }
    }

    /// The response to a GET of `path` with the request's header `fields` (names lowercased).
    private func respond(path: String, fields: [String: String]) -> (HTTPResponseHead, [UInt8]) {
        guard let resource = lookup(path) else {
            let body = Array("<html><body><h1>404 Not Found</h1></body></html>\n".utf8)
            return (Self.head(404, [("Content-Type", "text/html"), ("Content-Length", "\(body.count)")]), body)
        }
        guard resource.status == 200 else {
            return (Self.head(resource.status, resource.headers + [("Content-Length", "\(resource.body.count)")]),
                resource.body)
        }
        let body = resource.body
        let etag = "\"\(SHA256.hash(body).description.prefix(16))\""
        let modified = resource.headers.first { $0.name.lowercased() == "last-modified" }?.value
        var headers = resource.headers + [("ETag", etag), ("Accept-Ranges", "bytes")]
        if let match = fields["if-none-match"],
            match == "*" || match.split(separator: ",").contains(where: { Self.weakMatch($0, etag) })
        {
            return (Self.head(304, headers), [])
        }
        if fields["if-none-match"] == nil, let since = fields["if-modified-since"], let modified,
            let sinceTime = HTTPDate.parse(since), let modifiedTime = HTTPDate.parse(modified),
            modifiedTime <= sinceTime
        {
            return (Self.head(304, headers), [])
        }
        let rangeApplies = fields["if-range"].map { $0 == etag || (modified != nil && $0 == modified) } ?? true
        if let range = fields["range"], rangeApplies, let bounds = Self.byteRange(range, length: body.count) {
            guard let (first, last) = bounds else {
                headers.append(("Content-Range", "bytes */\(body.count)"))
                return (Self.head(416, headers + [("Content-Length", "0")]), [])
            }
            headers.append(("Content-Range", "bytes \(first)-\(last)/\(body.count)"))
            headers.append(("Content-Length", "\(last - first + 1)"))
            return (Self.head(206, headers), Array(body[first...last]))
        }
        return (Self.head(200, headers + [("Content-Length", "\(body.count)")]), body)
    }

    private func lookup(_ path: String) -> Resource? {
        if let resource = state.withLock({ $0.resources[path] }) { return resource }
        guard let root, !path.split(separator: "/").contains(".."),
            let data = FileManager.default.contents(atPath: root + path)
        else { return nil }
        var headers: [(name: String, value: String)] = [("Content-Type", "application/octet-stream")]
        if let date = (try? FileManager.default.attributesOfItem(atPath: root + path))?[.modificationDate] as? Date {
            headers.append(("Last-Modified", HTTPDate.format(date)))
        }
        return Resource(headers: headers, body: [UInt8](data))
    }

    /// A single `bytes=` range: nil when the field is not one (the whole body is sent), `.some(nil)` when it cannot
    /// be satisfied (416), else the first and last byte.
    private static func byteRange(_ field: String, length: Int) -> (Int, Int)?? {
        guard field.hasPrefix("bytes="), !field.contains(",") else { return nil }
        let spec = field.dropFirst("bytes=".count).split(separator: "-", omittingEmptySubsequences: false)
        guard spec.count == 2 else { return nil }
        if spec[0].isEmpty {
            guard let suffix = Int(spec[1]), suffix > 0 else { return nil }
            return length == 0 ? .some(nil) : (max(0, length - suffix), length - 1)
        }
        guard let first = Int(spec[0]) else { return nil }
        var last = length - 1
        if !spec[1].isEmpty {
            guard let stated = Int(spec[1]), stated >= first else { return nil }
            last = min(stated, length - 1)
        }
        return first < length ? (first, last) : .some(nil)
    }

    private static func weakMatch(_ tag: Substring, _ etag: String) -> Bool {
        let trimmed = tag.trimmingCharacters(in: .whitespaces)
        return trimmed == etag || trimmed == "W/" + etag
    }

    private static func head(_ status: Int, _ fields: [(name: String, value: String)]) -> HTTPResponseHead {
        HTTPResponseHead(status: status, statusLine: "HTTP/1.1 \(status)", fields: fields)
    }

    private static func fields(_ lines: [String]) -> [String: String] {
        var fields: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return fields
    }

    /// `url` without a `user:password@` before its host (an origin such as nginx ignores the credentials curl sends).
    private static func withoutUserInfo(_ url: String) -> String {
        guard let scheme = url.range(of: "://") else { return url }
        let authorityEnd = url[scheme.upperBound...].firstIndex { $0 == "/" || $0 == "?" } ?? url.endIndex
        guard let at = url[scheme.upperBound..<authorityEnd].lastIndex(of: "@") else { return url }
        return String(url[..<scheme.upperBound] + url[url.index(after: at)...])
    }

    private static func normalized(_ path: String) -> String {
        let bare = String(path.prefix { $0 != "?" })
        return bare.hasPrefix("/") ? bare : "/" + bare
    }
}
