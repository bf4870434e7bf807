// libFuzzer target for the feed cache entry decoder: every input is read as `<state>/feeds/<key>.json`, then used
// the way a sync uses a stored entry (freshness, conditional headers, a 304's update). Invariants: a decoded entry
// re-encodes to one that decodes equal; conditional headers are single lines. Built and run by
// scripts/fuzz-feed-cache.
import DocSync
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func feedCacheFuzzTarget(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: data, count: size))
    guard let entry = FeedCacheEntry.decode(bytes) else { return 0 }
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    _ = Freshness.isFresh(entry, now: now)
    for header in entry.conditionalHeaders {
        precondition(!header.contains("\r") && !header.contains("\n"), "a stored validator cannot inject a header")
    }
    let freshened = entry.freshened(byNotModified: ["etag": "\"x\"", "age": "12"], at: now)
    precondition(freshened.storedAt == now && freshened.etag == "\"x\"")
    precondition(FeedCacheEntry.decode(entry.encoded()) == entry, "an entry survives its own encoding")
    return 0
}
