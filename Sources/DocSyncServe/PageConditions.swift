import HTTPTypes
import NIOHTTP1

/// The request fields a page's answer depends on: `If-None-Match`, `Range` and `If-Range` (each nil when absent;
/// a field sent more than once is its values joined by `, `, as `HTTPFields` reads it). Taken from the async
/// route's `HTTPFields` or straight from NIO's HTTP/1 head on the fast path: the answer is the same.
struct PageConditions: Sendable, Equatable {
    var ifNoneMatch: String?
    var range: String?
    var ifRange: String?

    init(ifNoneMatch: String? = nil, range: String? = nil, ifRange: String? = nil) {
        self.ifNoneMatch = ifNoneMatch
        self.range = range
        self.ifRange = ifRange
    }

    init(_ fields: HTTPFields) {
        self.init(ifNoneMatch: fields[.ifNoneMatch], range: fields[.range], ifRange: fields[.ifRange])
    }

    init(_ headers: HTTPHeaders) {
        self.init()
        // Most requests carry none of the three: one pass over the names, no lookups.
        for (name, _) in headers where Self.isCondition(name) {
            ifNoneMatch = Self.value(headers, "If-None-Match")
            range = Self.value(headers, "Range")
            ifRange = Self.value(headers, "If-Range")
            return
        }
    }

    private static func value(_ headers: HTTPHeaders, _ name: String) -> String? {
        let values = headers[name]
        return values.isEmpty ? nil : values.joined(separator: ", ")
    }

    /// `If-…` or `Range`, any case.
    private static func isCondition(_ name: String) -> Bool {
        let utf8 = name.utf8
        guard let first = utf8.first else { return false }
        return first | 0x20 == UInt8(ascii: "i") || first | 0x20 == UInt8(ascii: "r")
    }
}
