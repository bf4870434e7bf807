import DocSync
import Foundation
import Testing

/// `SyncService` used from `import DocSync` alone: `Logger` (swift-log) and `ServiceGroup`
/// (swift-service-lifecycle), which its signature and its use need, come re-exported with it.
@Suite(.timeLimit(.minutes(5))) struct SyncServiceImportTests {
    @Test func aBackendRunsTheServiceWithImportDocSyncAlone() async throws {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("docsync-service-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let engine = SyncEngine(
            configuration: DocSyncConfiguration(
                root: "\(folder)/root", staging: "\(folder)/staging", state: "\(folder)/state"))
        let logger = Logger(label: "backend")
        let (outcomes, continuation) = AsyncStream<SyncService.Outcome>.makeStream()
        let service = SyncService(
            engine: engine, interval: .seconds(3600), logger: logger, onOutcome: { continuation.yield($0) }
        ) { _ in }
        let group = ServiceGroup(services: [service], logger: logger)
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            var iterator = outcomes.makeAsyncIterator()
            guard case .finished(let summary) = await iterator.next() else {
                Issue.record("the first run did not finish")
                await group.triggerGracefulShutdown()
                return
            }
            #expect(summary.isSuccess)
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
    }
}
