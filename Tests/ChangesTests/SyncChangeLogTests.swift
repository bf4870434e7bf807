import DocSync
import Foundation
import TestSupport
import Testing

/// Syncs record their changes in the root's change log: an install, an update, nothing for a sync that changes
/// nothing, and a prune's removal.
@Suite(.timeLimit(.minutes(5))) struct SyncChangeLogTests {
    static func changes(_ engine: SyncEngine, since cursor: String? = nil) async throws -> [DocsetChange] {
        var result: [DocsetChange] = []
        for try await change in engine.changes(since: cursor) { result.append(change) }
        return result
    }

    @Test func syncsRecordInstallsUpdatesAndPrunes() async throws {
        let h = try SyncHarness.inMemory()
        try h.publishArchive(try DocsetFixture.make(version: "1"), as: "A-1.tgz", folder: "A")
        try h.publishArchive(try DocsetFixture.make(version: "2"), as: "A-2.tgz", folder: "A")
        try h.writeAtomFeed("f.atom", [.init(identifier: "org.a", title: "A", version: "1", archive: "A-1.tgz")])
        try h.writeConfig(feeds: ["f.atom"], extra: "prune = true")
        let engine = try h.engine()
        for try await _ in engine.sync() {}
        let installed = try await Self.changes(engine)
        #expect(installed.map(\.kind) == [.installed] && installed.first?.to == "1")
        for try await _ in engine.sync() {}  // unchanged: nothing recorded
        #expect(try await Self.changes(engine, since: installed.last?.cursor).isEmpty)
        try h.writeAtomFeed("f.atom", [.init(identifier: "org.a", title: "A", version: "2", archive: "A-2.tgz")])
        for try await _ in engine.sync() {}
        let updated = try await Self.changes(engine, since: installed.last?.cursor)
        #expect(updated.map(\.kind) == [.updated] && updated.first?.from == "1" && updated.first?.to == "2")
        try h.writeAtomFeed("f.atom", [])
        for try await _ in engine.sync() {}
        let pruned = try await Self.changes(engine, since: updated.last?.cursor)
        #expect(pruned.map(\.kind) == [.removed] && pruned.first?.docset == "A" && pruned.first?.from == "2")
    }
}
