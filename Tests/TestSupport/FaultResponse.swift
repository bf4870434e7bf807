/// One scripted HTTP response of the `FaultServer`: every header and body byte is exactly what the test says.
package struct FaultResponse: Sendable {
    package var status: Int
    package var reason: String
    /// Header fields, sent verbatim and in order (nothing is added except `Connection: close`).
    package var headers: [(String, String)]
    package var body: [UInt8]
    /// Send the body with `Transfer-Encoding: chunked` framing (the caller adds the header).
    package var chunked = false
    /// Close the connection after this many body bytes (a dropped connection).
    package var closeAfter: Int?
    /// Raw bytes sent before the status line, e.g. interim `HTTP/1.1 103 Early Hints` responses.
    package var preamble = ""
    /// Stop sending for `stall.seconds` after `stall.after` body bytes, then close.
    package var stall: (after: Int, seconds: Double)?
    /// Send the body at `bytesPerSecond` (one small piece at a time, so bytes keep coming) for at most `seconds`,
    /// then close: a server that never quite stalls.
    package var trickle: (bytesPerSecond: Int, seconds: Double)?
    /// Send the body at about this many bytes per second.
    package var throttle: Int?

    package init(status: Int, reason: String = "", headers: [(String, String)] = [], body: [UInt8] = []) {
        self.status = status
        self.reason = reason
        self.headers = headers
        self.body = body
    }

    /// A conforming answer for `content`: a 206 for a satisfiable `Range: bytes=N-`, 416 beyond the end, else 200;
    /// with `etag` (and `If-Range` honoured against it) when given.
    package static func serve(
        _ content: [UInt8], to request: FaultRequest, etag: String? = "\"v1\"", extraHeaders: [(String, String)] = []
    ) -> FaultResponse {
        var headers = extraHeaders
        if let etag { headers.append(("ETag", etag)) }
        headers.append(("Accept-Ranges", "bytes"))
        let ifRangeOK = request.header("If-Range").map { $0 == etag } ?? true
        if let start = request.rangeStart, ifRangeOK {
            guard start < content.count else {
                return FaultResponse(status: 416, headers: headers + [("Content-Range", "bytes */\(content.count)")])
            }
            let body = Array(content[start...])
            headers += [
                ("Content-Range", "bytes \(start)-\(content.count - 1)/\(content.count)"),
                ("Content-Length", "\(body.count)"),
            ]
            return FaultResponse(status: 206, headers: headers, body: body)
        }
        return FaultResponse(status: 200, headers: headers + [("Content-Length", "\(content.count)")], body: content)
    }

    /// A response whose connection drops after `bytes` body bytes.
    package func closing(after bytes: Int) -> FaultResponse {
        var copy = self
        copy.closeAfter = bytes
        return copy
    }

    /// This response sent at `bytesPerSecond` for at most `seconds`.
    package func trickling(_ bytesPerSecond: Int, for seconds: Double = 600) -> FaultResponse {
        var copy = self
        copy.trickle = (bytesPerSecond, seconds)
        return copy
    }

    /// This response with header `name` replaced (or removed when `value` is nil).
    package func replacing(_ name: String, with value: String?) -> FaultResponse {
        var copy = self
        copy.headers.removeAll { $0.0.lowercased() == name.lowercased() }
        if let value { copy.headers.append((name, value)) }
        return copy
    }
}

/// A request as the `FaultServer` received it.
package struct FaultRequest: Sendable, Equatable {
    package var method: String
    package var path: String
    /// Header lines in arrival order.
    package var headers: [String]

    package func header(_ name: String) -> String? {
        let prefix = name.lowercased() + ":"
        return headers.first { $0.lowercased().hasPrefix(prefix) }.map {
            String($0.dropFirst(prefix.count)).trimmingCharacters()
        }
    }

    /// N of `Range: bytes=N-`, when the request has exactly that form.
    package var rangeStart: Int? {
        guard let range = header("Range"), range.hasPrefix("bytes="), range.hasSuffix("-") else { return nil }
        return Int(range.dropFirst(6).dropLast())
    }
}

extension String {
    fileprivate func trimmingCharacters() -> String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " || $0 == "\r" }.reversed())
    }
}
