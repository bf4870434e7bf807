#if canImport(Glibc)
    import Glibc
#endif

/// A request head read straight from a connection's bytes, before NIO's HTTP/1 decoder sees them (``PageFront``):
/// where it ends, and whether it is a plain `GET` of a page (`/d/…`, no query, no conditional or range field, kept
/// alive) that ``PageFastPath`` may answer on the event loop.
///
/// Strict on purpose: only a head that the decoder would read the same way, and after which it would wait for the
/// next request, is split off here — `METHOD SP target SP HTTP/1.1 CRLF`, fields `name: value CRLF` (a token for the
/// name, printable ASCII or tabs for the value), the blank line, at most ``maximumBytes`` bytes and
/// ``maximumFields`` fields, no `Content-Length`, `Transfer-Encoding`, `Upgrade` or `Expect` (a body or a protocol
/// switch would follow), a method the decoder knows. Anything else — cut short, a byte out of place, a folded line,
/// HTTP/1.0 — is ``Kind/unknown``: the decoder reads it, and everything after it, as it always did. A head cut short
/// by the end of the bytes read so far, valid up to there, is ``Kind/incomplete``: ``PageFront`` waits for the rest.
struct RawRequestHead: Equatable {
    enum Kind: Equatable {
        /// `GET` of `target` (its byte range: `/d/…` without `?` or `#`), kept alive, without `If-None-Match`,
        /// `Range` or `If-Range`.
        case plainPage(target: Range<Int>)
        /// Any other complete head without a body: the decoder's, and it waits for a new request after it.
        case other
        /// Valid so far but cut short by the end of the bytes (under ``maximumBytes``): read again when more arrive.
        case incomplete
        /// Not one this reader vouches for (or longer than ``maximumBytes``): the decoder's from here on.
        case unknown
    }

    let kind: Kind
    /// The offset just past the head's blank line (0 for ``Kind/unknown`` and ``Kind/incomplete``).
    let end: Int

    static let maximumBytes = 4096
    static let maximumFields = 32

    /// The head at the start of `bytes`.
    static func parse(_ bytes: UnsafeRawBufferPointer) -> RawRequestHead {
        var reader = Reader(bytes: bytes, limit: min(bytes.count, maximumBytes))
        if let head = reader.head() { return head }
        return RawRequestHead(kind: reader.ranOut ? .incomplete : .unknown, end: 0)
    }

    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        let limit: Int
        var at = 0

        /// After ``head()`` failed: it failed for want of bytes (everything up to the end of `bytes` was valid, a
        /// lone `CR` at the very end included, and a method cut short is the start of a known one), not for a byte
        /// out of place, and more bytes may still make a head.
        var ranOut: Bool {
            guard limit == bytes.count, limit < RawRequestHead.maximumBytes else { return false }
            if at == limit - 1 { return bytes[at] == 0x0d }
            guard at == limit else { return false }
            var methodEnd = 0
            while methodEnd < limit, Self.isUpper(bytes[methodEnd]) { methodEnd += 1 }
            guard methodEnd == limit, limit > 0 else { return true }
            return Self.methods.contains { method in
                method.utf8CodeUnitCount >= limit && memcmp(bytes.baseAddress!, method.utf8Start, limit) == 0
            }
        }

        mutating func head() -> RawRequestHead? {
            let methodStart = at
            while at < limit, Self.isUpper(bytes[at]) { at += 1 }
            let method = methodStart..<at
            guard let known = Self.methods.firstIndex(where: { Self.equals(bytes, method, $0) }),
                take(UInt8(ascii: " "))
            else { return nil }
            let isGet = known == 0
            let targetStart = at
            var query = false
            while at < limit, bytes[at] > 0x20, bytes[at] < 0x7f {
                if bytes[at] == UInt8(ascii: "?") || bytes[at] == UInt8(ascii: "#") { query = true }
                at += 1
            }
            let target = targetStart..<at
            guard !target.isEmpty, take(UInt8(ascii: " ")), takeVersion(), takeLineEnd() else { return nil }
            var plain =
                isGet && !query && target.count > 3 && bytes[targetStart] == UInt8(ascii: "/")
                && bytes[targetStart + 1] == UInt8(ascii: "d") && bytes[targetStart + 2] == UInt8(ascii: "/")
            var fields = 0
            while !takeLineEnd() {
                fields += 1
                guard fields <= RawRequestHead.maximumFields else { return nil }
                let nameStart = at
                while at < limit, Self.isToken(bytes[at]) { at += 1 }
                let name = nameStart..<at
                guard !name.isEmpty, take(UInt8(ascii: ":")) else { return nil }
                while at < limit, bytes[at] == 0x20 || bytes[at] == 0x09 { at += 1 }
                let valueStart = at
                while at < limit, (bytes[at] >= 0x20 && bytes[at] < 0x7f) || bytes[at] == 0x09 { at += 1 }
                var valueEnd = at
                while valueEnd > valueStart, bytes[valueEnd - 1] == 0x20 || bytes[valueEnd - 1] == 0x09 {
                    valueEnd -= 1
                }
                guard takeLineEnd() else { return nil }
                switch Self.field(bytes, name) {
                case .framing: return nil
                case .condition: plain = false
                case .connection:
                    if !Self.equalsLowercased(bytes, valueStart..<valueEnd, "keep-alive") { plain = false }
                case .plain: break
                }
            }
            return RawRequestHead(kind: plain ? .plainPage(target: target) : .other, end: at)
        }

        private mutating func take(_ byte: UInt8) -> Bool {
            guard at < limit, bytes[at] == byte else { return false }
            at += 1
            return true
        }

        private mutating func takeLineEnd() -> Bool {
            guard at + 1 < limit, bytes[at] == 0x0d, bytes[at + 1] == 0x0a else { return false }
            at += 2
            return true
        }

        private mutating func takeVersion() -> Bool {
            for byte in "HTTP/1.1".utf8 where !take(byte) { return false }
            return true
        }

        private enum Field { case framing, condition, connection, plain }

        /// The methods split off (GET first); the decoder reads any other.
        private static let methods: [StaticString] = ["GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "PATCH"]
        private static let framing: [StaticString] = ["content-length", "transfer-encoding", "upgrade", "expect"]
        private static let conditions: [StaticString] = ["if-none-match", "range", "if-range"]

        private static func field(_ bytes: UnsafeRawBufferPointer, _ name: Range<Int>) -> Field {
            if framing.contains(where: { equalsLowercased(bytes, name, $0) }) { return .framing }
            if conditions.contains(where: { equalsLowercased(bytes, name, $0) }) { return .condition }
            return equalsLowercased(bytes, name, "connection") ? .connection : .plain
        }

        /// The bytes in `range` are `text`, exactly.
        private static func equals(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>, _ text: StaticString) -> Bool {
            range.count == text.utf8CodeUnitCount
                && memcmp(bytes.baseAddress! + range.lowerBound, text.utf8Start, range.count) == 0
        }

        /// The bytes in `range`, ASCII letters folded to lower case, are `lowercased`.
        private static func equalsLowercased(
            _ bytes: UnsafeRawBufferPointer, _ range: Range<Int>, _ lowercased: StaticString
        ) -> Bool {
            guard range.count == lowercased.utf8CodeUnitCount else { return false }
            for k in 0..<range.count {
                let byte = bytes[range.lowerBound + k]
                let folded = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
                guard folded == lowercased.utf8Start[k] else { return false }
            }
            return true
        }

        private static func isUpper(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") }

        /// RFC 9110's `tchar`.
        private static func isToken(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"):
                true
            default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
            }
        }
    }
}
