import Foundation

/// What docsync remembers about a feed's last response: validators for a conditional GET and the caching headers
/// that say how long the stored body stays fresh. Persisted as JSON in the state directory.
public struct FeedCacheEntry: Codable, Sendable, Equatable {
    public var url: String
    public var etag: String?
    public var lastModified: String?
    public var cacheControl: String?
    public var expires: String?
    public var date: String?
    public var age: String?
    /// When the response (or the last 304 that freshened it) was received.
    public var storedAt: Date

    public init(
        url: String, etag: String? = nil, lastModified: String? = nil, cacheControl: String? = nil,
        expires: String? = nil, date: String? = nil, age: String? = nil, storedAt: Date
    ) {
        self.url = url
        self.etag = etag
        self.lastModified = lastModified
        self.cacheControl = cacheControl
        self.expires = expires
        self.date = date
        self.age = age
        self.storedAt = storedAt
    }

    /// Request headers that turn the next GET into a conditional one.
    public var conditionalHeaders: [String] {
        var headers: [String] = []
        if let etag { headers.append("If-None-Match: \(etag)") }
        if let lastModified { headers.append("If-Modified-Since: \(lastModified)") }
        return headers
    }

    /// RFC 9111 §4.3.4: a 304 updates the stored headers it carries and restarts the age clock.
    public func freshened(byNotModified fields: [String: String], at now: Date) -> FeedCacheEntry {
        var copy = self
        copy.etag = fields["etag"] ?? etag
        copy.lastModified = fields["last-modified"] ?? lastModified
        copy.cacheControl = fields["cache-control"] ?? cacheControl
        copy.expires = fields["expires"] ?? expires
        copy.date = fields["date"] ?? date
        copy.age = fields["age"]
        copy.storedAt = now
        return copy
    }
}
