import Foundation
import Testing

@testable import DocSync

/// A docsync mirror's own copy stays first (the learned order would explore the unmeasured upstream first), unless
/// the feed is not a mirror's or the mirror's host is failing.
@Suite(.timeLimit(.minutes(5))) struct OwnCopyPreferenceTests {
    static let mirror = "http://cache.lan/archives/\(String(repeating: "a", count: 64))/Go.tgz"
    static let upstream = "http://origin.example/Go.tgz"
    static let now = Date(timeIntervalSince1970: 2_000_000_000)

    static func health(failures: Int, ago: TimeInterval) -> HostHealth {
        var health = HostHealth()
        health.successes = 3
        health.bytesPerSecond = 1e8
        health.consecutiveFailures = failures
        health.lastFailure = failures > 0 ? now.addingTimeInterval(-ago) : nil
        return health
    }

    @Test(arguments: [
        // (feed, sha256 stated, mirror host's health, expected first URL)
        ("http://cache.lan/feeds/Go.xml", true, health(failures: 0, ago: 0), mirror),  // measured, healthy: stays first
        ("http://cache.lan/feeds/Go.xml", true, health(failures: 2, ago: 60), upstream),  // failing now: learned order
        ("http://cache.lan/feeds/Go.xml", true, health(failures: 2, ago: 200_000), mirror),  // failure forgiven
        ("http://cache.lan/feeds/Go.xml", false, health(failures: 0, ago: 0), upstream),  // no checksum: not a mirror
        ("http://other.lan/feeds/Go.xml", true, health(failures: 0, ago: 0), upstream),  // archive on another host
    ])
    func ownCopyFirst(feed: String, stated: Bool, health: HostHealth, first: String) {
        let candidate = DocsetCandidate(
            name: "Go", title: "Go", version: DocsetVersion(version: "1", revision: ""),
            archives: [Self.mirror, Self.upstream], sha256: stated ? String(repeating: "a", count: 64) : nil,
            feed: feed)
        // What learning alone gives: the measured mirror after the never-measured upstream.
        let learned = AlternateRanking.order(
            candidate.archives, hosts: ["cache.lan": health], now: Self.now)
        #expect(learned.first == Self.upstream)
        let ordered = OwnCopyPreference.order(learned: learned, candidate: candidate, ownHealth: health, now: Self.now)
        #expect(ordered.first == first && Set(ordered) == Set(candidate.archives))
    }
}
