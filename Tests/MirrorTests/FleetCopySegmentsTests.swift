import Testing

@testable import DocSync

/// A docsync mirror's own copy with upstream fallbacks is fetched over one connection (sync's downloader(for:)), so a
/// segmented download never spreads ranges to those fallbacks; any other archive is split as configured.
@Suite(.timeLimit(.minutes(5))) struct FleetCopySegmentsTests {
    static let mirror = "http://cache.lan/archives/\(String(repeating: "a", count: 64))/Go.tgz"
    static let upstream = "http://origin.example/Go.tgz"

    @Test(arguments: [
        // (feed, sha256 stated, archives, a fleet copy with fallbacks: one connection)
        ("http://cache.lan/feeds/Go.xml", true, [mirror, upstream], true),
        ("http://cache.lan/feeds/Go.xml", true, [upstream, mirror], true),  // demoted while failing: still the fleet's
        ("http://cache.lan/feeds/Go.xml", false, [mirror, upstream], false),  // no checksum: not a mirror's feed
        ("http://other.lan/feeds/Go.xml", true, [mirror, upstream], false),  // no archive on the feed's host
        ("Go.xml", true, [mirror, upstream], false),  // a local feed file
        ("http://cache.lan/feeds/Go.xml", true, [mirror], false),  // a publisher's own single URL: still splits
    ])
    func fleetCopy(feed: String, stated: Bool, archives: [String], expected: Bool) {
        let candidate = DocsetCandidate(
            name: "Go", title: "Go", version: DocsetVersion(version: "1", revision: ""), archives: archives,
            sha256: stated ? String(repeating: "a", count: 64) : nil, feed: feed)
        #expect(OwnCopyPreference.hasUpstreamFallbacks(candidate) == expected)
    }
}
