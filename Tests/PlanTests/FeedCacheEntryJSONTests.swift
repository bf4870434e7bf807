import DocSync
import Foundation
import Testing

/// Each feed's cache entry is read on every sync through `JSONParser`: what docsync writes, and whatever else a
/// state folder holds, read as the `Codable` decoding read it (a value, or nil).
@Suite(.timeLimit(.minutes(5))) struct FeedCacheEntryJSONTests {
    @Test func entriesReadAsTheCodableDecodingReadsThem() {
        var entry = FeedCacheEntry(
            url: "https://user:***@example.org/Doc.xml", etag: "\"5f-1a\"",
            lastModified: "Sun, 06 Dec 2026 15:00:00 GMT",
            cacheControl: "max-age=60", expires: nil, date: "Sun, 06 Dec 2026 15:00:01 GMT", age: "3",
            storedAt: Date(timeIntervalSince1970: 1_796_569_201))
        entry.bodySHA256 = String(repeating: "ab", count: 32)
        let written = entry.encoded()
        #expect(FeedCacheEntry.decodedInOnePass(written) == entry)  // what docsync writes takes the fast path
        #expect(FeedCacheEntry.decode(written) == entry)
        #expect(FeedCacheEntry.decodedByFoundation(written) == entry)
        for text in [
            "{\"url\": \"u\", \"storedAt\": \"2026-12-06T15:00:00Z\"}",
            "{\"url\": \"u\", \"storedAt\": \"2026-12-06T15:00:00+01:00\", \"etag\": null}",
            "{\"url\": \"u\", \"storedAt\": \"2026-12-06T15:00:00.5Z\"}",
            "{\"url\": \"u\", \"storedAt\": \"2026-13-06T15:00:00Z\"}", "{\"url\": \"u\", \"storedAt\": 1}",
            "{\"url\": \"u\"}", "{\"storedAt\": \"2026-12-06T15:00:00Z\"}",
            "{\"url\": \"u\", \"storedAt\": \"2026-12-06T15:00:00Z\", \"etag\": 5}",
            "{\"url\": \"u\", \"storedAt\": \"2026-12-06T15:00:00Z\", \"etag\": \"a\\nb\"}",
            "{\"url\": \"u\", \"storedAt\": \"2026-12-06T15:00:00Z\", \"bodySHA256\": [\"x\"]}", "[]", "",
        ] {
            let bytes = Array(text.utf8)
            let reference = FeedCacheEntry.decodedByFoundation(bytes).flatMap { stored in
                [stored.etag, stored.lastModified].contains { $0?.contains("\n") == true } ? nil : stored
            }
            #expect(FeedCacheEntry.decode(bytes) == reference, "\(text)")
        }
    }
}
