internal import DocSyncHTTP
import Foundation

/// RFC 9111 freshness for a private cache, explicit lifetimes only: is a stored feed response still fresh, so that
/// no request is needed at all? (No heuristic freshness: a feed without `max-age` or `Expires` is revalidated.)
package enum Freshness {
    package static func isFresh(_ entry: FeedCacheEntry, now: Date) -> Bool {
        guard let lifetime = lifetime(entry) else { return false }
        return lifetime > currentAge(entry, now: now)
    }

    /// §4.2.1: `max-age` wins over `Expires − Date`; `no-cache` / `no-store` mean "always revalidate".
    /// An invalid `Expires` (e.g. `0`) means already expired.
    static func lifetime(_ entry: FeedCacheEntry) -> TimeInterval? {
        let directives = CacheControl(entry.cacheControl ?? "")
        if directives.noCache || directives.noStore { return nil }
        if let maxAge = directives.maxAge { return TimeInterval(maxAge) }
        guard let expiresText = entry.expires else { return nil }
        guard let expires = HTTPDate.date(expiresText) else { return 0 }
        let date = entry.date.flatMap(HTTPDate.date) ?? entry.storedAt
        return expires.timeIntervalSince(date)
    }

    /// §4.2.3, with the response time as the request time (the delay of one feed request is negligible).
    static func currentAge(_ entry: FeedCacheEntry, now: Date) -> TimeInterval {
        let date = entry.date.flatMap(HTTPDate.date) ?? entry.storedAt
        let apparentAge = max(0, entry.storedAt.timeIntervalSince(date))
        let ageValue = entry.age.flatMap { TimeInterval($0.trimmingCharacters(in: .whitespaces)) } ?? 0
        return max(apparentAge, ageValue) + now.timeIntervalSince(entry.storedAt)
    }

    struct CacheControl {
        var maxAge: Int?
        var noCache = false
        var noStore = false

        init(_ text: String) {
            for part in text.split(separator: ",") {
                let pieces = part.split(separator: "=", maxSplits: 1).map {
                    $0.trimmingCharacters(in: .whitespaces).lowercased()
                }
                switch pieces[0] {
                case "no-cache": noCache = true
                case "no-store": noStore = true
                case "max-age" where pieces.count == 2:
                    let value = Int(pieces[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")))
                    // A repeated or invalid max-age makes the response stale (§5.2.2.1 / §4.2.1).
                    maxAge = (maxAge == nil && value != nil && value! >= 0) ? value : 0
                default: break
                }
            }
        }
    }
}
