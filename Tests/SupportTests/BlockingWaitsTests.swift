import DocSyncSupport
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `.blockingWaits`: a test that blocks runs on threads of its own, and blocked jobs never keep another one waiting
/// (the cooperative pool, one thread per core, would hold the barrier below forever on two cores).
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct BlockingWaitsTests {
    /// The calling thread's name (`/proc/thread-self/comm`).
    static var threadName: String {
        ((try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "")
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func aBlockingTestRunsOffTheCooperativePool() async {
        #expect(Self.threadName == "test-blocking")
        await Task.yield()
        #expect(Self.threadName == "test-blocking")  // resumed on the same executor, not the pool
    }

    /// More jobs than cores each block until all of them have arrived: only an executor that gives a blocked job's
    /// successor a thread of its own lets them all arrive.
    @Test func blockedChildTasksNeverKeepAnotherWaiting() async throws {
        let width = 3 * ProcessInfo.processInfo.activeProcessorCount + 2
        let barrier = Barrier(width)
        let arrived = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<width { group.addTask { barrier.arrive(timeout: 60) } }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(arrived == width, "\(arrived) of \(width) child tasks passed the barrier within 60 s")
        #expect(BlockingTestExecutor.shared.threadCount >= width)
    }

    /// A barrier threads block at: `arrive` returns true once `count` have arrived, false after `timeout` seconds.
    final class Barrier: @unchecked Sendable {
        // `@unchecked Sendable`: `arrived` is only read or written with `lock` held.
        private let lock = ConditionLock()
        private var arrived = 0
        private let count: Int

        init(_ count: Int) { self.count = count }

        func arrive(timeout: Double) -> Bool {
            let deadline = Date().addingTimeInterval(timeout)
            lock.withLock { arrived += 1 }
            while Date() < deadline {
                if lock.withLock({ arrived >= count }) { return true }
                usleep(10_000)
            }
            return false
        }
    }
}
