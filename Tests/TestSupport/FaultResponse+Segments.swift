/// Answers for segmented downloads: closed ranges (`bytes=a-b`), `If-Match` / `If-Unmodified-Since`, per-connection
/// throttling.
extension FaultResponse {
    /// A conforming answer for `content` to any single range (`bytes=a-b` or `bytes=a-`): 206 with its exact
    /// Content-Range, 416 beyond the end, 200 without Range; `If-Match` other than `etag` gets 412 unless
    /// `honourIfMatch` is false.
    package static func serveRanges(
        _ content: [UInt8], to request: FaultRequest, etag: String? = "\"v1\"", honourIfMatch: Bool = true,
        extraHeaders: [(String, String)] = []
    ) -> FaultResponse {
        var headers = extraHeaders
        if let etag { headers.append(("ETag", etag)) }
        headers.append(("Accept-Ranges", "bytes"))
        if honourIfMatch, let wanted = request.header("If-Match"), wanted != etag {
            return FaultResponse(status: 412, headers: headers + [("Content-Length", "0")])
        }
        guard let (first, last) = request.byteRange else {
            return FaultResponse(
                status: 200, headers: headers + [("Content-Length", "\(content.count)")], body: content)
        }
        guard first < content.count else {
            return FaultResponse(status: 416, headers: headers + [("Content-Range", "bytes */\(content.count)")])
        }
        let end = min(last ?? content.count - 1, content.count - 1)
        let body = Array(content[first...end])
        headers += [
            ("Content-Range", "bytes \(first)-\(end)/\(content.count)"), ("Content-Length", "\(body.count)"),
        ]
        return FaultResponse(status: 206, headers: headers, body: body)
    }

    /// This response sent at about `bytesPerSecond` (a per-connection rate limit, like nginx's `limit_rate`).
    package func throttled(to bytesPerSecond: Int) -> FaultResponse {
        var copy = self
        copy.throttle = bytesPerSecond
        return copy
    }

    /// This response stalling for `seconds` after `bytes` body bytes, then closing.
    package func stalling(after bytes: Int, for seconds: Double) -> FaultResponse {
        var copy = self
        copy.stall = (bytes, seconds)
        return copy
    }
}

extension FaultRequest {
    /// `(first, last)` of `Range: bytes=first-last` or `bytes=first-` (last nil).
    package var byteRange: (Int, Int?)? {
        guard let range = header("Range"), range.hasPrefix("bytes=") else { return nil }
        let parts = range.dropFirst(6).split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let first = Int(parts[0]) else { return nil }
        if parts[1].isEmpty { return (first, nil) }
        guard let last = Int(parts[1]), last >= first else { return nil }
        return (first, last)
    }
}

extension FaultRequest {
    /// A request as a scripted transport saw it (no socket involved).
    package init(url: String, headers: [String]) {
        self.init(method: "GET", path: url, headers: headers)
    }
}
