import DocSync
import Foundation
import Synchronization
import GRDB
import Testing

/// What an indexing backend sees when it links the `DocSync` product next to GRDB (its own SQLite layer): both
/// configuration types by their unqualified names, no clash, and an engine built in code without a TOML file.
@Suite(.timeLimit(.minutes(10))) struct ConsumerTests {
    @Test func docSyncAndGRDBNamesCompileSideBySide() throws {
        var database = Configuration()  // GRDB's
        database.readonly = true
        let settings = DocSyncConfiguration(root: "/srv/docsets", staging: "/var/cache/d", state: "/var/lib/d")
        let engine = SyncEngine(configuration: settings)
        #expect(database.readonly)
        #expect(engine.configuration.root == "/srv/docsets" && engine.runObservers.isEmpty)
    }

    @Test func runObserversAreThePluggedInMetricsSeam() async throws {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("docsync-consumer-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let observer = Recorder()
        let engine = SyncEngine(
            configuration: DocSyncConfiguration(
                root: "\(folder)/root", staging: "\(folder)/staging", state: "\(folder)/state"),
            runObservers: [observer])
        for try await _ in engine.sync() {}
        let reports = observer.reports
        #expect(reports.count == 1)
        #expect(reports.first?.outcome == .ok && reports.first?.summary.isSuccess == true)
        #expect(reports.first.map { $0.lastSuccessAt == $0.finishedAt && $0.startedAt <= $0.finishedAt } == true)
    }
}

/// Collects the reports it is given.
final class Recorder: SyncRunObserver {
    private let lock = Mutex<[SyncRunReport]>([])
    var reports: [SyncRunReport] { lock.withLock { $0 } }
    func syncRunFinished(_ report: SyncRunReport) { lock.withLock { $0.append(report) } }
}
