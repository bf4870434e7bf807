// Benchmarks/changes-bench's library side: reads a root's change log through `SyncEngine.changes(since:)` the way
// an indexing backend would (every field of every change touched, nothing printed per change), best of RUNS, and
// prints `RECORDS BEST_MS CPU_MS` (CPU: user + system of the best run).
//
// usage: changes-bench-driver ROOT [CURSOR] [RUNS]
import DocSync
import Foundation

let arguments = CommandLine.arguments
guard (2...4).contains(arguments.count) else {
    print("usage: changes-bench-driver ROOT [CURSOR] [RUNS]")
    exit(64)
}
let root = arguments[1]
let cursor = arguments.count > 2 && !arguments[2].isEmpty ? arguments[2] : nil
let runs = arguments.count > 3 ? Int(arguments[3]) ?? 5 : 5
let engine = SyncEngine(
    configuration: DocSyncConfiguration(root: root, staging: root + "/.bench-staging", state: root + "/.bench-state"))

func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(Int32(RUSAGE_SELF.rawValue), &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
        + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}

/// One read of every change (off the main actor, as a backend's task would: top-level code runs on it, and each
/// `next()` would hop to it and back); the count and a sum that keeps every field read.
func readAll(_ engine: SyncEngine, since cursor: String?) async throws -> (count: Int, bytes: Int) {
    var count = 0
    var bytes = 0
    for try await change in engine.changes(since: cursor) {
        count += 1
        bytes &+= change.cursor.utf8.count &+ change.docset.utf8.count &+ (change.from?.utf8.count ?? 0)
        bytes &+= (change.to?.utf8.count ?? 0) &+ (change.toVersionID?.utf8.count ?? 0)
        bytes &+= Int(change.at.timeIntervalSince1970)
    }
    return (count, bytes)
}

var best = Double.infinity
var bestCPU = 0.0
var count = 0
for _ in 0..<runs {
    let cpu = cpuSeconds()
    let start = ContinuousClock.now
    let read = try await Task.detached { try await readAll(engine, since: cursor) }.value
    let elapsed = ContinuousClock.now - start
    count = read.count
    let ms = Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1e3
    if ms < best {
        best = ms
        bestCPU = (cpuSeconds() - cpu) * 1e3
    }
    if read.bytes == 42 { print("") }  // keeps the sum alive
}
print(count, String(format: "%.2f", best), String(format: "%.2f", bestCPU))
