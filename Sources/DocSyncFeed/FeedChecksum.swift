/// The optional archive checksum a feed may carry: `<docset:sha256>` (Atom, docset namespace) or `<sha256>`
/// (Dash). Pure.
enum FeedChecksum {
    /// 64 hex digits (surrounding whitespace allowed), lowercased; nil for anything else.
    static func normalizedSHA256(_ text: String) -> String? {
        let trimmed = FeedText.collapsingWhitespace(text)
        guard trimmed.utf8.count == 64, trimmed.utf8.allSatisfy({ $0.isHexDigit }) else { return nil }
        return trimmed.lowercased()
    }
}

extension UInt8 {
    fileprivate var isHexDigit: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(self)
    }
}
