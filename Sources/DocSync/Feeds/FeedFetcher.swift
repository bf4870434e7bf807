package import DocSyncFeed
package import DocSyncHTTP

/// Fetches a feed over http(s) with a plain GET and parses it from memory (here, not in DocSyncFeed, so that the
/// parser does not link libcurl). (The sync stage does conditional
/// GETs itself and calls `FeedParser.parse(bytes:documentURL:)`.)
package enum FeedFetcher {
    /// GETs `url` (redirects followed; at most `limits.maxBytes` of body) and parses the body. Relative
    /// references resolve against `documentURL`, by default the URL of the final response. Errors name `url`.
    /// `transport` carries the request (libcurl by default).
    package static func fetch(
        url: String, documentURL: String? = nil, limits: FeedLimits = .init(), options: HTTPOptions = .init(),
        transport: HTTPTransport = .curl
    ) async throws(FeedError) -> FeedDocument {
        let response: HTTPResponse
        do throws(HTTPClientError) {
            response = try await HTTPClient(transport: transport).get(
                HTTPRequest(url: url, options: options), maxBodyBytes: limits.maxBytes)
        } catch {
            switch error {
            case .bodyTooLarge(_, let limit): throw FeedError(feed: url, reason: .tooLarge(limit: limit))
            default: throw FeedError(feed: url, reason: .transport(message: error.description))
            }
        }
        guard (200..<300).contains(response.head.status) else {
            throw FeedError(feed: url, reason: .httpStatus(response.head.status))
        }
        return try FeedParser.parse(
            bytes: response.body, documentURL: documentURL ?? response.effectiveURL, feed: url, limits: limits)
    }
}
