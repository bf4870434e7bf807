import DocSyncSupport

/// The optional archive checksum a feed may carry: `<docset:sha256>` (Atom, docset namespace) or `<sha256>`
/// (Dash). Pure.
enum FeedChecksum {
    /// 64 hex digits (surrounding whitespace allowed), lowercased; nil for anything else.
    static func normalizedSHA256(_ text: String) -> String? {
        let trimmed = FeedText.collapsingWhitespace(text)
        guard trimmed.utf8.count == 64, trimmed.utf8.allSatisfy({ $0.hexDigitValue != nil }) else { return nil }
        return trimmed.lowercased()
    }
}
