import DocSync
import DocSyncSupport
import Foundation
import Synchronization
import TestSupport
import Testing

/// 2,000 concurrent library searches run on the library's bounded pool: the threads stay bounded (counted in
/// `/proc/self/task`) and a ticker task on the cooperative pool is never held up more than 50 ms (before the pool,
/// a thread per call: ~200 threads and stalls of seconds).
///
/// Not `.blockingWaits`: the searches and the ticker run on the cooperative pool, as a library caller's do (that
/// trait's executor starts a thread per running job); only `ThreadSampler`'s own thread sleeps.
///
/// It floods the process's one shared pool on purpose, so it runs in a test process of its own: `scripts/test` runs it
/// after the other suites with `DOCSYNC_TEST_ALONE=1` (in the shared run every library call of every other suite
/// would queue behind its 2,000 searches).
@Suite(
    .timeLimit(.minutes(10)),
    .enabled(if: ProcessInfo.processInfo.environment["DOCSYNC_TEST_ALONE"] == "1", "needs a test process of its own"))
struct SearchPoolTests {
    @Test func twoThousandSearchesUseBoundedThreadsWithoutStallingTheCooperativePool() async throws {
        let dir = try TemporaryDirectory("search-pool")
        defer { dir.remove() }
        var entries = Samples.dash
        for k in 0..<20_000 { entries.append(.init(name: "symbol\(k)Name", type: "Function", path: "p/\(k).html")) }
        let path = try IndexFixture.dash("Big", in: dir.path, entries)
        let index = DocsetIndex(
            docsets: [IndexedDocset(name: "Big", version: "1", path: path)], stateDirectory: dir.appending("state"))
        try await index.prepare()
        _ = try await index.search(SearchQuery("printf", limit: 1))  // the pool's threads exist from here on

        // The machine's own delay first: the same ticker without the searches, for as long as they will take.
        let quiet = await Self.worstDelay(of: .seconds(2)) {}
        let baseline = ThreadSampler.count()
        let sampler = ThreadSampler(counting: "docsync-pool")
        let queries = ["printf", "symbol1", "name", "sym12", "vector", "symbol19999name"]
        var found: [Int] = []
        let stall = try await Self.worstDelay(of: nil) {
            found = try await withThrowingTaskGroup(of: Int.self) { group in
                for k in 0..<2_000 {
                    group.addTask {
                        try await index.search(SearchQuery(queries[k % queries.count], limit: 5)).hits.count
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
        }
        sampler.stop()
        let peak = sampler.peak
        let bound = BlockingPool.shared.threads
        print("searches: pool threads \(peak.named) (bound \(bound)), process threads \(baseline) → \(peak.all)"
            + " in \(peak.samples) samples, worst ticker stall \(stall) (alone: \(quiet)); at the peak"
            + " \(sampler.namesAtPeak)")

        #expect(found.count == 2_000 && found.allSatisfy { $0 > 0 })
        #expect(peak.samples > 0)
        #expect(peak.named >= 1 && peak.named <= bound)
        // The searches start no thread of their own (slack for other suites running in this process meanwhile).
        #expect(peak.all - baseline <= 32)
        // 50 ms beyond what the machine itself delays the ticker (a shared, loaded machine delays it on its own). A
        // search's checks run on the pool's thread too, so a caller's task only queues the job and takes the result.
        #expect(stall < .milliseconds(50) + quiet, "worst stall \(stall), the machine alone \(quiet)")
    }

    /// The worst delay of a 2 ms ticker task on the cooperative pool while `work` runs (or for `duration`).
    static func worstDelay(of duration: Duration?, _ work: () async throws -> Void) async rethrows -> Duration {
        let ticking = Atomic<Bool>(true)
        let ticker = Task { () -> Duration in
            let clock = ContinuousClock()
            var worst = Duration.zero
            var last = clock.now
            while ticking.load(ordering: .relaxed) {
                try? await Task.sleep(for: .milliseconds(2))
                let now = clock.now
                worst = max(worst, now - last - .milliseconds(2))
                last = now
            }
            return worst
        }
        if let duration { try? await Task.sleep(for: duration) }
        try await work()
        ticking.store(false, ordering: .relaxed)
        return await ticker.value
    }
}
