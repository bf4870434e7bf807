// SearchPoolTests' stall measurement in a release build: 2,000 concurrent `DocsetIndex.search` calls from tasks on
// the cooperative pool, while a 2 ms ticker task measures how late it wakes; first the same ticker alone (the
// machine's own delay). Prints `worst_stall_ms quiet_ms` for each of RUNS runs.
//
// usage: search-stall-driver ROOT [RUNS]   (ROOT: a docsync root with installed docsets)
import DocSync
import Foundation
import Synchronization

let arguments = CommandLine.arguments
guard (2...3).contains(arguments.count) else {
    print("usage: search-stall-driver ROOT [RUNS]")
    exit(64)
}
let root = arguments[1]
let runs = arguments.count > 2 ? Int(arguments[2]) ?? 3 : 3
let engine = SyncEngine(
    configuration: DocSyncConfiguration(root: root, staging: root + "/.bench-staging", state: root + "/.bench-state"))

/// The worst delay of a 2 ms ticker task while `work` runs (or for `duration`).
func worstDelay(of duration: Duration?, _ work: @Sendable () async throws -> Void) async throws -> Duration {
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

func milliseconds(_ duration: Duration) -> String {
    String(format: "%.1f", Double(duration.components.seconds) * 1e3 + Double(duration.components.attoseconds) / 1e15)
}

func measure() async throws {
    let index = try engine.index()
    try await index.prepare()
    _ = try await index.search(SearchQuery("page", limit: 1))
    let queries = ["page", "p1", "name", "e12", "vector", "page99999"]
    for _ in 0..<runs {
        let quiet = try await worstDelay(of: .seconds(2)) {}
        let stall = try await worstDelay(of: nil) {
            try await withThrowingTaskGroup(of: Int.self) { group in
                for k in 0..<2_000 {
                    group.addTask { try await index.search(SearchQuery(queries[k % queries.count], limit: 5)).hits.count }
                }
                for try await _ in group {}
            }
        }
        print(milliseconds(stall), milliseconds(quiet))
    }
}

try await Task.detached { try await measure() }.value
