import DocSync
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A finished sync releases `<state>/sync.lock` even while a child that another thread spawned meanwhile still holds
/// a copy of its descriptor (between fork and exec, O_CLOEXEC has not closed it yet): the next sync of the same
/// process is not refused as busy. (A parallel suite spawns processes all the time; `RepairTests`' consecutive
/// in-process syncs were refused "another docsync sync is running" by their own finished run.)
@Suite(.timeLimit(.minutes(10))) struct SyncLockReleaseTests {
    @Test func theNextSyncIsNotBusyWhileAForkedChildHoldsACopyOfTheLock() async throws {
        let dir = try TemporaryDirectory("sync-lock")
        defer { dir.remove() }
        let state = dir.appending("state")
        // A run holds the lock; a child forked meanwhile copies its descriptor and, like one that has not reached its
        // exec yet, keeps it (here until killed, right after the next acquisition).
        var child: pid_t = -1
        do {
            let run = try await SyncExclusion.acquire(stateDirectory: state, wait: false)
            child = fork()
            if child == 0 {
                while true { pause() }  // async-signal-safe only: waits for SIGKILL
            }
            withExtendedLifetime(run) {}
        }  // the run ends: its lock is released here
        try #require(child > 0, "fork: \(errno)")
        defer {
            kill(child, SIGKILL)
            var status: Int32 = 0
            waitpid(child, &status, 0)
        }
        let next = try await SyncExclusion.acquire(stateDirectory: state, wait: false)  // throws `busy` if still held
        withExtendedLifetime(next) {}
    }
}
