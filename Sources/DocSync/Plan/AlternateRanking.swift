import Foundation

/// What docsync has learned about one archive host (scheme-less `host[:port]`), kept across runs.
package struct HostHealth: Codable, Sendable, Equatable {
    package var successes = 0
    package var failures = 0
    /// Failures since the last success: a host with any is tried after the healthy ones.
    package var consecutiveFailures = 0
    package var lastFailure: Date?
    package var lastSuccess: Date?
    /// Smoothed download throughput (bytes per second), from completed downloads.
    package var bytesPerSecond: Double?

    enum CodingKeys: String, CodingKey {
        case successes, failures
        case consecutiveFailures = "consecutive_failures"
        case lastFailure = "last_failure"
        case lastSuccess = "last_success"
        case bytesPerSecond = "bytes_per_second"
    }

    package init() {}
}

/// The order mirrors are tried in: a pure function of what was learned, so the same state always gives the same
/// order (no randomness, no flapping on small speed differences).
///
/// 1. Healthy hosts first (no failure since their last success, or the last failure is older than `forgiveAfter`),
///    then failing ones by fewest consecutive failures.
/// 2. Among healthy hosts: never-measured ones first (each is tried once, so a fast mirror is found), then by
///    throughput class (powers of two: 1–2 MB/s and 1.5 MB/s are the same class).
/// 3. Ties keep the publisher's order.
package enum AlternateRanking {
    package static func order(
        _ urls: [String], hosts: [String: HostHealth], now: Date = Date(), forgiveAfter: TimeInterval = 86_400
    ) -> [String] {
        let keyed = urls.enumerated().map { index, url -> (url: String, key: (Int, Int, Int, Int)) in
            let health = hosts[host(of: url)] ?? HostHealth()
            let forgiven = health.lastFailure.map { now.timeIntervalSince($0) > forgiveAfter } ?? true
            if health.consecutiveFailures > 0 && !forgiven {
                return (url, (1, health.consecutiveFailures, 0, index))
            }
            guard let speed = health.bytesPerSecond, speed > 0 else { return (url, (0, 0, 0, index)) }
            return (url, (0, 1, -Int(log2(max(speed, 1))), index))
        }
        return keyed.sorted { $0.key < $1.key }.map(\.url)
    }

    /// The order for URLs whose sequence is itself a decision (a lock's: the URL last used first): kept as given,
    /// except that hosts failing now go after the others (by fewest consecutive failures). No exploration of
    /// never-measured hosts and no reordering by speed.
    package static func orderKeepingSequence(
        _ urls: [String], hosts: [String: HostHealth], now: Date = Date(), forgiveAfter: TimeInterval = 86_400
    ) -> [String] {
        let keyed = urls.enumerated().map { index, url -> (url: String, key: (Int, Int, Int)) in
            let health = hosts[host(of: url)] ?? HostHealth()
            let forgiven = health.lastFailure.map { now.timeIntervalSince($0) > forgiveAfter } ?? true
            if health.consecutiveFailures > 0 && !forgiven { return (url, (1, health.consecutiveFailures, index)) }
            return (url, (0, 0, index))
        }
        return keyed.sorted { $0.key < $1.key }.map(\.url)
    }

    /// `host[:port]`, lowercased, the key hosts are recorded under.
    package static func host(of url: String) -> String { HostLimiter.host(of: url) }

    /// Folds one sync's outcome for a docset into the hosts' records: the mirrors tried before `winner` failed,
    /// the winner succeeded at `bytesPerSecond`. With no winner (the download failed on every mirror) each
    /// tried mirror failed.
    package static func record(
        tried: [String], winner: String?, bytesPerSecond: Double?, into hosts: inout [String: HostHealth],
        now: Date = Date()
    ) {
        for url in tried {
            let key = host(of: url)
            var health = hosts[key] ?? HostHealth()
            if url == winner {
                health.successes += 1
                health.consecutiveFailures = 0
                health.lastSuccess = now
                if let rate = bytesPerSecond, rate > 0 {
                    health.bytesPerSecond = health.bytesPerSecond.map { ($0 + rate) / 2 } ?? rate
                }
                hosts[key] = health
                return
            }
            health.failures += 1
            health.consecutiveFailures += 1
            health.lastFailure = now
            hosts[key] = health
        }
    }
}
