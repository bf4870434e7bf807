import DocSync
import DocSyncConfigFile
import Foundation
import TestSupport
import Testing

/// A lease per change: both versions an update names stay readable through prunes until it is released.
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct ChangeLeaseTests {
    @Test func aLeasedChangeKeepsItsOldVersionThroughAPrune() async throws {
        let h = try ReaderHarness(grace: "3600s")
        defer { h.remove() }
        let v1 = try await h.install("A", version: "1")
        let v2 = try await h.install("A", version: "2")
        var changes: [DocsetChange] = []
        for try await change in h.engine.changes() { changes.append(change) }
        let update = try #require(changes.last)
        #expect(update.kind == .updated)
        let lease = try await h.engine.lease(update)
        #expect(lease.from?.path == v1.path && lease.to?.path == v2.path)
        // The grace period over: a sync prunes every replaced version nobody leases.
        let toml = try String(contentsOfFile: h.configPath, encoding: .utf8)
        try toml.replacingOccurrences(of: "3600s", with: "0s")
            .write(toFile: h.configPath, atomically: true, encoding: .utf8)
        let pruner = SyncEngine(configuration: try DocSyncConfigurationLoader().load(file: h.configPath))
        try await pruner.pruneBySyncing()
        try await pruner.pruneBySyncing()
        #expect(h.versions.count == 2, "the leased v1 outlives the prune: \(h.versions)")
        let old = String(decoding: try await #require(lease.from).contents(of: "page0.html"), as: UTF8.self)
        #expect(old.contains("1 page 0"))
        let new = String(decoding: try await #require(lease.to).contents(of: "page0.html"), as: UTF8.self)
        #expect(new.contains("2 page 0"))
        lease.release()
        try await pruner.pruneBySyncing()
        #expect(h.versions == [URL(fileURLWithPath: v2.path).lastPathComponent], "released: v1 is pruned")
        // A change whose old version is gone leases what is left.
        let late = try await h.engine.lease(update)
        #expect(late.from == nil && late.to?.path == v2.path)
        late.release()
    }
}
