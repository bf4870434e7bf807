import DocSync

/// Where `feed parse` reads a feed from: an http(s) URL is fetched, anything else is a file path.
struct FeedSource {
    let text: String

    init(_ text: String) { self.text = text }

    var isRemote: Bool {
        let lower = text.lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }

    func load(baseURL: String?, maxBytes: Int) async throws(FeedParseError) -> ParsedFeed {
        if isRemote {
            // 120 s in all, as `[network] feed_timeout`'s default: a trickling server cannot hold it
            return try await ParsedFeed.fetch(url: text, baseURL: baseURL, maxBytes: maxBytes, timeout: 120)
        }
        return try ParsedFeed.parse(fileAt: text, baseURL: baseURL, maxBytes: maxBytes)
    }

    /// `scheme:` followed by something (RFC 3986 §3.1 scheme characters).
    static func isAbsoluteURL(_ text: String) -> Bool {
        guard let colon = text.firstIndex(of: ":"), colon != text.startIndex, text.index(after: colon) < text.endIndex
        else { return false }
        let scheme = text[..<colon]
        return scheme.first!.isLetter
            && scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
    }
}
