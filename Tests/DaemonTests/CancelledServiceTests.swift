import DocSync
import DocSyncConfigFile
import Foundation
import Logging
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A sync never outlives its caller: a cancelled `SyncService` (and a cancelled consumer of `sync()`) returns only
/// after the run has stopped and released its lock, and nothing is installed after that.
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct CancelledServiceTests {
    /// Whether someone holds the sync exclusion (`<state>/sync.lock`): a non-blocking flock of our own fails.
    static func lockHeld(_ h: SyncHarness) -> Bool {
        let fd = open("\(h.state)/sync.lock", O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else { return true }
        flock(fd, LOCK_UN)
        return false
    }

    @Test func aCancelledServiceReturnsOnlyAfterItsRunStoppedAndUnlocked() async throws {
        let (h, _) = try SyncHarness.slowHarness(rate: 64 << 10)
        let engine = SyncEngine(configuration: try DocSyncConfigurationLoader().load(file: h.configPath))
        let service = SyncService(engine: engine, interval: .seconds(3600), logger: Logger(label: "test")) { _ in }
        let running = Task { try await service.run() }
        try Poll.until("the service's sync to hold the lock", timeout: 20) { Self.lockHeld(h) }
        running.cancel()
        try await running.value
        #expect(!Self.lockHeld(h), "run() returned while its sync still held the lock")
        // Stopped midway through the download (64 KiB/s): nothing was installed, and no run is left to install.
        #expect(!FileManager.default.fileExists(atPath: "\(h.root)/Big.docset"))
    }
}
