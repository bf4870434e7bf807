/// The status line and header fields of one HTTP response, as parsed from libcurl's header callback.
package struct HTTPResponseHead: Sendable, Equatable {
    package var status: Int
    package var statusLine: String
    /// Header fields in arrival order; names keep their case, lookups ignore it.
    package var fields: [(name: String, value: String)]

    package init(status: Int, statusLine: String = "", fields: [(name: String, value: String)] = []) {
        self.status = status
        self.statusLine = statusLine
        self.fields = fields
    }

    /// Every value of a field (a field may legally repeat; callers decide whether that is acceptable).
    package func values(_ name: String) -> [String] {
        fields.filter { $0.name.caseInsensitiveEquals(name) }.map(\.value)
    }

    /// The field's value when it occurs exactly once.
    package func value(_ name: String) -> String? {
        let all = values(name)
        return all.count == 1 ? all[0] : nil
    }

    package var isInterim: Bool { (100..<200).contains(status) }
    package var isRedirect: Bool { [301, 302, 303, 307, 308].contains(status) }

    package static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.status == rhs.status && lhs.statusLine == rhs.statusLine
            && lhs.fields.map(\.name) == rhs.fields.map(\.name) && lhs.fields.map(\.value) == rhs.fields.map(\.value)
    }
}

/// Turns header lines, in the order libcurl hands them over, into response heads. Every status line starts a new
/// head (redirects, 1xx interim responses), so no field of an earlier response leaks into a later one.
package struct HTTPHeadParser: Sendable {
    private var current: HTTPResponseHead?
    /// Heads completed so far, oldest first (interim and redirect responses included).
    package private(set) var completed: [HTTPResponseHead] = []

    package init() {}

    /// Feeds one raw header line (with or without CRLF). Returns the head that this line completed, if any.
    package mutating func consume(_ rawLine: String) -> HTTPResponseHead? {
        let line = rawLine.trimmingSuffix { $0.isNewline }
        if line.hasPrefix("HTTP/") {
            let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
            let status = parts.count >= 2 ? Int(parts[1]) ?? 0 : 0
            current = HTTPResponseHead(status: status, statusLine: String(line))
            return nil
        }
        guard var head = current else { return nil }  // trailers after the final head, or noise: ignored
        if line.isEmpty {
            completed.append(head)
            current = nil
            return head
        }
        if line.first == " " || line.first == "\t", let last = head.fields.popLast() {  // obsolete line folding
            head.fields.append((last.name, last.value + " " + line.trimmingWhitespace()))
        } else if let colon = line.firstIndex(of: ":") {
            let name = String(line[..<colon]).trimmingWhitespace()
            let value = String(line[line.index(after: colon)...]).trimmingWhitespace()
            head.fields.append((name, value))
        }
        current = head
        return nil
    }
}

extension StringProtocol {
    func caseInsensitiveEquals(_ other: some StringProtocol) -> Bool {
        self.count == other.count && zip(self.utf8, other.utf8).allSatisfy { Self.lower($0) == Self.lower($1) }
    }

    private static func lower(_ c: UInt8) -> UInt8 { (c >= 65 && c <= 90) ? c + 32 : c }

    func trimmingWhitespace() -> String {
        String(self.drop { $0 == " " || $0 == "\t" }.trimmingSuffix { $0 == " " || $0 == "\t" })
    }

    func trimmingSuffix(while predicate: (Character) -> Bool) -> SubSequence {
        var end = endIndex
        while end > startIndex, predicate(self[index(before: end)]) { end = index(before: end) }
        return self[startIndex..<end]
    }
}
