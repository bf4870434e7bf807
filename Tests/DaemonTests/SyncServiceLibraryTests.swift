import DocSync
import DocSyncConfigFile
import Foundation
import Logging
import ServiceLifecycle
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `SyncService` — the loop `docsync daemon` runs — used as a library: in a `ServiceGroup` it syncs now and again
/// after the interval, hands on every event, and stops on graceful shutdown; a run that cannot start is an outcome,
/// not the end of the service.
@Suite(.timeLimit(.minutes(10))) struct SyncServiceLibraryTests {
    /// Collects what the service reports, for waiting on.
    final class Seen: @unchecked Sendable {
        private let lock = NSLock()
        private var outcomes: [SyncService.Outcome] = []
        private var summaries = 0

        func add(_ outcome: SyncService.Outcome) { lock.withLock { outcomes.append(outcome) } }
        func add(_ event: SyncEvent) { if case .summary = event { lock.withLock { summaries += 1 } } }
        var snapshot: (outcomes: [SyncService.Outcome], summaries: Int) { lock.withLock { (outcomes, summaries) } }

        /// Waits (polling the condition, 4 minutes at most) until `condition` holds. The tests that block threads
        /// run off the cooperative pool (`.blockingWaits`), so the service group's task is scheduled at once; but in
        /// the whole suite at load 7–20 a service's second run had not reported after 60 s (twice, 7 December), so
        /// the bound is the suite's time limit less the time a test waits for a thread.
        func wait(_ condition: ([SyncService.Outcome]) -> Bool) async -> Bool {
            let deadline = ContinuousClock.now + .seconds(240)
            while !Task.isCancelled, ContinuousClock.now < deadline {
                if condition(snapshot.outcomes) { return true }
                try? await Task.sleep(for: .milliseconds(20))
            }
            return false
        }
    }

    static var logger: Logger {
        var logger = Logger(label: "test.sync-service")
        logger.logLevel = .critical
        return logger
    }

    @Test func syncsPeriodicallyAndStopsOnGracefulShutdown() async throws {
        let h = try ReaderHarness()
        defer { h.remove() }
        try await h.install("A", version: "1")
        let seen = Seen()
        let service = SyncService(
            engine: h.engine, interval: .milliseconds(200), logger: Self.logger, onOutcome: { seen.add($0) },
            onEvent: { seen.add($0) })
        let group = ServiceGroup(services: [service], logger: Self.logger)
        let running = BlockingTestExecutor.task { try await group.run() }
        let twice = await seen.wait { $0.count >= 2 }
        await group.triggerGracefulShutdown()
        try await running.value
        let (outcomes, summaries) = seen.snapshot
        #expect(twice, "two runs, an interval apart: \(outcomes)")
        // Every finished run emitted its summary; a run the shutdown interrupted may have emitted one too.
        let finished = outcomes.filter { if case .finished = $0 { true } else { false } }.count
        #expect(finished >= 2 && summaries >= finished && summaries <= outcomes.count, "\(summaries): \(outcomes)")
        for outcome in outcomes {
            if case .failed(let error) = outcome { Issue.record("a run failed: \(error)") }
        }
        #expect(try h.engine.installedDocsets().map(\.name) == ["A"])
    }

    @Test func aRunThatCannotStartIsReportedAndTheLoopGoesOn() async throws {
        let h = try ReaderHarness()
        defer { h.remove() }
        try FileManager.default.createDirectory(atPath: h.state, withIntermediateDirectories: true)
        let fd = open("\(h.state)/sync.lock", O_RDWR | O_CREAT, 0o644)
        defer { close(fd) }
        #expect(flock(fd, LOCK_EX) == 0)  // another "sync" holds the lock
        let seen = Seen()
        let service = SyncService(
            engine: h.engine, interval: .milliseconds(50), options: SyncOptions(wait: false), logger: Self.logger,
            onOutcome: { seen.add($0) }, onEvent: { _ in })
        let running = BlockingTestExecutor.task { try await service.run() }
        let failedTwice = await seen.wait { outcomes in
            outcomes.filter { if case .failed(let error) = $0 { error == .busy } else { false } }.count >= 2
        }
        running.cancel()
        try await running.value  // run() returns on cancellation
        #expect(failedTwice, "\(seen.snapshot.outcomes)")
    }

    @Test func syncErrorsHaveOneTypeAndAKind() async throws {
        let h = try ReaderHarness()
        defer { h.remove() }
        var options = SyncOptions()
        options.only = ["Nothing"]
        do {
            for try await _ in h.engine.sync(options) {}
            Issue.record("a sync of an unknown docset ran")
        } catch {
            #expect(error == .unknownDocset && error.kind == .unknownDocset && "\(error.kind)" == "unknown_docset")
            #expect(error.unknownDocsets?.unknown.map(\.name) == ["Nothing"])
        }
        try Data().write(to: URL(fileURLWithPath: h.dir.appending("file")))
        let broken = """
            root = "file/root"
            staging = "staging"
            state = "state"
            """
        try broken.write(toFile: h.configPath, atomically: true, encoding: .utf8)
        let engine = SyncEngine(configuration: try DocSyncConfigurationLoader().load(file: h.configPath))
        do {
            for try await _ in engine.sync() {}
            Issue.record("a sync with an unusable root ran")
        } catch {
            #expect(error == .preflight && error.preflightFailure?.problems.map(\.key) == ["root"])
            #expect(error.message.contains("root = "))
        }
    }
}
