import DocSyncSupport
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Samples the test process's threads (`/proc/self/task`) every 2 ms on a thread of its own until ``stop()``: the
/// most threads seen at once, the most of them whose name starts with `counting`, and the threads by name at the
/// peak (to tell who started them when a bound fails).
package final class ThreadSampler: Sendable {
    private let peaks = Mutex((all: 0, named: 0, samples: 0))
    private let names = Mutex([String: Int]())
    private let stopped = Atomic<Bool>(false)

    /// Starts sampling, counting threads named `counting…` apart.
    package init(counting prefix: String) {
        WorkerThread.start(name: "test-sampler") { [self] in
            while !stopped.load(ordering: .relaxed) {
                let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
                let comms = tasks.map { task in
                    ((try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)) ?? "")
                        .trimmingCharacters(in: .newlines)
                }
                let named = comms.filter { $0.hasPrefix(prefix) }.count
                let highest = peaks.withLock { peak in
                    defer { peak = (max(peak.all, tasks.count), max(peak.named, named), peak.samples + 1) }
                    return tasks.count > peak.all
                }
                if highest { names.withLock { $0 = Dictionary(comms.map { ($0, 1) }, uniquingKeysWith: +) } }
                usleep(2_000)
            }
        }
    }

    /// The most threads seen at once (all of the process's, and those named with the prefix), and the samples taken.
    package var peak: (all: Int, named: Int, samples: Int) { peaks.withLock { $0 } }
    /// The threads by name at the peak.
    package var namesAtPeak: [String: Int] { names.withLock { $0 } }
    /// Ends the sampling thread after its current sample.
    package func stop() { stopped.store(true, ordering: .relaxed) }

    /// The threads of the process now.
    package static func count() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task"))?.count ?? 0
    }
}
