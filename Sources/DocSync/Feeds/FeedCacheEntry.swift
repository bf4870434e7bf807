internal import DocSyncSupport
import Foundation

/// What docsync remembers about a feed's last response: validators for a conditional GET and the caching headers
/// that say how long the stored body stays fresh. Persisted as JSON in the state directory.
package struct FeedCacheEntry: Codable, Sendable, Equatable {
    package var url: String
    package var etag: String?
    package var lastModified: String?
    package var cacheControl: String?
    package var expires: String?
    package var date: String?
    package var age: String?
    /// When the response (or the last 304 that freshened it) was received.
    package var storedAt: Date
    /// SHA-256 (hex) of the stored body: a body that no longer matches is dropped, never trusted (set on save).
    package var bodySHA256: String?

    package init(
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

    /// Decodes a stored entry (`<state>/feeds/<key>.json`); nil when the bytes are not one, or when a validator
    /// holds a line break or NUL (a stored value must never add a request header).
    /// Read in one pass (`JSONParser`; every feed's entry is read on every sync) when it is as docsync writes it,
    /// else by `JSONDecoder` (the same verdict for anything unusual).
    package static func decode(_ bytes: [UInt8]) -> FeedCacheEntry? {
        guard let entry = decodedInOnePass(bytes) ?? decodedByFoundation(bytes) else { return nil }
        for value in [entry.etag, entry.lastModified].compactMap({ $0 })
        where value.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" }) {
            return nil
        }
        return entry
    }

    /// The `Codable` decoding (ISO 8601 dates): the reference the fast read is tested against.
    package static func decodedByFoundation(_ bytes: [UInt8]) -> FeedCacheEntry? {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try? decoder.decode(FeedCacheEntry.self, from: Data(bytes))
    }

    /// The entry `bytes` hold as docsync writes it (`storedAt` as `2026-12-06T15:00:00Z`), read by `JSONParser`; nil
    /// for anything else: a member missing or of another type, another date form, not JSON.
    package static func decodedInOnePass(_ bytes: [UInt8]) -> FeedCacheEntry? {
        guard let value = try? JSONParser.parse(bytes), let object = JSONObjectReader(value) else { return nil }
        do {
            let stamp = try object.string("storedAt")
            guard stamp.utf8.count == 20, stamp.utf8.last == UInt8(ascii: "Z"),
                let storedAt = try? Date(stamp, strategy: Date.ISO8601FormatStyle())
            else { return nil }
            var entry = FeedCacheEntry(
                url: try object.string("url"), etag: try object.optionalString("etag"),
                lastModified: try object.optionalString("lastModified"),
                cacheControl: try object.optionalString("cacheControl"), expires: try object.optionalString("expires"),
                date: try object.optionalString("date"), age: try object.optionalString("age"), storedAt: storedAt)
            entry.bodySHA256 = try object.optionalString("bodySHA256")
            return entry
        } catch {
            return nil
        }
    }

    /// The stored form of this entry (pretty-printed JSON, sorted keys, ISO 8601 dates).
    package func encoded() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        return Array((try? encoder.encode(self)) ?? Data())
    }

    /// Request headers that turn the next GET into a conditional one.
    package var conditionalHeaders: [String] {
        var headers: [String] = []
        if let etag { headers.append("If-None-Match: \(etag)") }
        if let lastModified { headers.append("If-Modified-Since: \(lastModified)") }
        return headers
    }

    /// RFC 9111 §4.3.4: a 304 updates the stored headers it carries and restarts the age clock.
    package func freshened(byNotModified fields: [String: String], at now: Date) -> FeedCacheEntry {
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

    /// Whether this entry (a 304's `freshened(byNotModified:at:)`) must replace `stored` on disk: when a validator
    /// or caching header changed, or when either can be fresh (`Freshness`: its age clock matters). An entry that is
    /// never fresh and keeps its validators asks the same conditional GET next time whether it is rewritten or not,
    /// so a no-op sync of such feeds writes nothing (a rewrite a feed was most of a 304's cost at 1,000 feeds).
    package func needsSaving(replacing stored: FeedCacheEntry) -> Bool {
        if Freshness.lifetime(self) != nil || Freshness.lifetime(stored) != nil { return true }
        return url != stored.url || etag != stored.etag || lastModified != stored.lastModified
            || cacheControl != stored.cacheControl || expires != stored.expires
    }
}
