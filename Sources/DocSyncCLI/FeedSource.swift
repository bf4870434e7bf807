import DocSync
import DocSyncFeed
import DocSyncHTTP
import Foundation

/// Where `feed parse` reads a feed from: an http(s) URL is fetched, anything else is a file path.
struct FeedSource {
    let text: String

    init(_ text: String) { self.text = text }

    var isRemote: Bool {
        let lower = text.lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }

    func load(baseURL: String?, limits: FeedLimits) async throws(FeedError) -> FeedDocument {
        if isRemote {
            var options = HTTPOptions()
            options.totalTimeout = 120  // as `[network] feed_timeout`'s default: a trickling server cannot hold it
            return try await FeedFetcher.fetch(url: text, documentURL: baseURL, limits: limits, options: options)
        }
        do {
            return try FeedParser.parse(fileAt: text, documentURL: baseURL, limits: limits)
        } catch {
            if case .unreadable(let code, _) = error.reason, code == ENOENT, MissingFeedFile.looksLikeURL(text) {
                throw FeedError(feed: text, reason: .unreadable(errno: code, message: MissingFeedFile.reason(text)))
            }
            throw error
        }
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
