import DocSyncHTTP

/// Judges one response head against the request that was sent and the resume state (checklist sections C–D).
/// Pure: no I/O, so every rule is a table row in the tests.
package enum ResponsePolicy {
    package struct Context: Sendable, Equatable {
        package var state: ResumeState
        /// What the request asked for.
        package var plan: RequestPlan
        /// True when this transfer followed a redirect before this response.
        package var redirected: Bool
        /// A length the caller knows the file must have.
        package var expectedLength: Int64?
        /// The file is an archive: a 200 with an HTML page or an empty body is the mirror's error page (a soft 404).
        package var rejectsPages = false

        package init(state: ResumeState, plan: RequestPlan, redirected: Bool = false, expectedLength: Int64? = nil) {
            self.state = state
            self.plan = plan
            self.redirected = redirected
            self.expectedLength = expectedLength
        }
    }

    package static func decide(_ head: HTTPResponseHead, _ context: Context) -> ResponseDecision {
        let status = head.status
        if head.isInterim { return .ignore }  // C30
        if head.isRedirect {
            return head.value("Location") == nil ? .nextAlternate("\(status) without Location") : .ignore
        }
        switch status {
        case 200: return full(head, context)
        case 206: return partial(head, context)
        case 304: return .nextAlternate("304 Not Modified to an unconditional request")  // C27
        case 412: return .restart("412 Precondition Failed")  // C26
        case 416: return unsatisfiable(head, context)  // C25
        case 401, 403, 410:  // C28, G56
            return context.redirected ? .reResolve("\(status) from a redirect target") : .nextAlternate("HTTP \(status)")
        case 408, 429, 500...599: return .retryLater(after: retryAfter(head), "HTTP \(status)")  // C29
        default: return .nextAlternate("HTTP \(status)")
        }
    }

    /// A 200: the whole representation from byte 0, never appended to a partial (C23, C24).
    private static func full(_ head: HTTPResponseHead, _ context: Context) -> ResponseDecision {
        if let encoding = encodingProblem(head) { return .reject(encoding) }
        var total: Int64?
        let lengths = head.values("Content-Length")
        if !lengths.isEmpty {
            guard lengths.count == 1, let length = decimal(lengths[0]) else {
                return .reject("malformed Content-Length \(lengths)")
            }
            total = length
        }
        if context.rejectsPages, let page = softNotFound(head, length: total) { return .nextAlternate(page) }
        if let expected = context.expectedLength, let total, total != expected {
            return .nextAlternate("Content-Length \(total) is not the expected length \(expected)")
        }
        if total == nil, !isFramed(head), !context.state.digestKnown {  // E48
            return .nextAlternate("200 without Content-Length or chunked framing: its end cannot be verified")
        }
        return .write(
            WritePlan(
                from: 0, end: total, total: total, truncateFirst: true, overlap: 0, validator: Validator(head: head)))
    }

    /// A 206: exactly one valid Content-Range starting at the asked byte, total L, span == Content-Length (D32–D45).
    private static func partial(_ head: HTTPResponseHead, _ context: Context) -> ResponseDecision {
        guard case .range(let asked, _) = context.plan else { return .reject("206 to a request without Range") }  // C22
        if let encoding = encodingProblem(head) { return .restart(encoding) }  // D44
        if let type = head.value("Content-Type"), type.lowercased().hasPrefix("multipart/") {
            return .reject("206 with Content-Type \(type) to a single range")  // D42
        }
        let ranges = head.values("Content-Range")
        guard !ranges.isEmpty else { return .reject("206 without Content-Range") }  // D32
        guard ranges.count == 1 else { return .reject("206 with \(ranges.count) Content-Range fields") }  // D33
        guard let range = ContentRange(parsing: ranges[0]),
            case .satisfied(let first, let last, let complete) = range.form
        else { return .reject("malformed Content-Range '\(ranges[0])'") }  // D34, D36
        let state = context.state
        if first != asked { return .restart("206 starts at byte \(first), asked for \(asked)") }  // D35
        guard let complete else { return .reject("Content-Range '\(ranges[0])' hides the complete length") }  // D37
        guard let length = state.length, complete == length else {  // D38
            return .restart("complete length \(complete) differs from the recorded \(state.length ?? -1)")
        }
        let lengths = head.values("Content-Length")
        if !lengths.isEmpty {  // D41
            guard lengths.count == 1, let declared = decimal(lengths[0]), declared == last - first + 1 else {
                return .reject("Content-Length \(lengths) does not match Content-Range '\(ranges[0])'")
            }
        }
        let now = Validator(head: head)
        if let etag = now.etag, etag != state.validator.etag {  // D43
            return .restart("ETag changed from \(state.validator.etag ?? "none") to \(etag)")
        }
        if let modified = now.lastModified, let recorded = state.validator.lastModified, modified != recorded {
            return .restart("Last-Modified changed from \(recorded) to \(modified)")
        }
        return .write(
            WritePlan(
                from: first, end: last + 1, total: length, truncateFirst: false,
                overlap: state.committed - first, validator: state.validator))
    }

    /// A 416 is "complete" only when it states exactly the length that is already durable (C25).
    private static func unsatisfiable(_ head: HTTPResponseHead, _ context: Context) -> ResponseDecision {
        let state = context.state
        if let field = head.value("Content-Range"), let range = ContentRange(parsing: field),
            case .unsatisfied(let complete) = range.form, complete == state.committed, state.length == complete
        {
            return .complete
        }
        return .restart("416 Range Not Satisfiable (\(head.value("Content-Range") ?? "no Content-Range"))")
    }

    /// An archive mirror's soft 404: a 200 whose Content-Type is a web page, or whose body is declared empty.
    static func softNotFound(_ head: HTTPResponseHead, length: Int64?) -> String? {
        let type = (head.value("Content-Type") ?? "").lowercased()
        if type.hasPrefix("text/html") || type.hasPrefix("application/xhtml") {
            return "200 with Content-Type \(type): a mirror's page, not an archive"
        }
        return length == 0 ? "200 with an empty body: a mirror fault, not an archive" : nil
    }

    private static func encodingProblem(_ head: HTTPResponseHead) -> String? {
        let encodings = head.values("Content-Encoding").flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters() }.filter { !$0.isEmpty && $0 != "identity" }
        return encodings.isEmpty ? nil : "\(head.status) with Content-Encoding \(encodings.joined(separator: ", "))"
    }

    /// True when the body's end is framed (chunked, or HTTP/2 and later), so a cut connection is not taken for the
    /// end of a body without Content-Length.
    package static func isFramed(_ head: HTTPResponseHead) -> Bool {
        if head.statusLine.hasPrefix("HTTP/2") || head.statusLine.hasPrefix("HTTP/3") { return true }
        return head.values("Transfer-Encoding").contains { $0.lowercased().contains("chunked") }
    }

    /// `Retry-After` as delta-seconds, or an HTTP-date relative to the response's `Date`.
    static func retryAfter(_ head: HTTPResponseHead) -> Int64? {
        guard let value = head.value("Retry-After") else { return nil }
        if let seconds = decimal(value) { return seconds }
        guard let at = HTTPDate.parse(value), let dateField = head.value("Date"), let now = HTTPDate.parse(dateField)
        else { return nil }
        return max(0, at - now)
    }

    private static func decimal(_ text: String) -> Int64? {
        guard (1...18).contains(text.utf8.count), text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int64(text)
    }
}

extension Substring {
    fileprivate func trimmingCharacters() -> String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed()).lowercased()
    }
}
