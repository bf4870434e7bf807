import DocSync
import DocSyncIndex
import Foundation
import GRDB
import TestSupport
import Testing

/// The text index kept right by the commands that look after installed docsets: `docsync verify` reports a missing
/// (a note) or damaged (exit 3) text index, `sync --repair` rebuilds a damaged one from the installed pages (no
/// feed: nothing can be downloaded), a plain sync builds a missing one, and `sync --relayout` gives the new
/// version a text index of its own; an index of an older layout is rebuilt by the next sync, and answers meanwhile.
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct FullTextMaintenanceTests {
    static func found(_ word: String, _ engine: SyncEngine) async throws -> [String] {
        try await engine.index().fullTextSearch(TextSearchQuery(word)).hits.map { "\($0.docset):\($0.page)" }
    }

    @Test func verifyReportsTheTextIndexAndRepairRebuildsItWithoutDownloading() async throws {
        let installed = try await FullTextSearchTests.install([.extracted])
        defer { installed.dir.remove() }
        let engine = installed.engine
        var env = ProcessInfo.processInfo.environment
        env["DOCSYNC_CONFIG"] = nil
        env["XDG_CONFIG_HOME"] = installed.dir.appending("no-config")
        env["XDG_CONFIG_DIRS"] = installed.dir.appending("no-config")
        func verify() throws -> Tool.Result {
            try Tool.run(
                Tool.docsyncBinary,
                ["verify", "--root", installed.configuration.root, "--state", installed.configuration.state],
                environment: env)
        }
        let intact = try verify()
        #expect(intact.status == 0, "\(intact.standardOutput)")
        #expect(!intact.standardOutput.contains("text index"), "\(intact.standardOutput)")

        // Damaged: pages of the database overwritten.
        let folder = installed.configuration.state + "/fulltext"
        let file = try #require(try FileManager.default.contentsOfDirectory(atPath: folder).first { $0.hasSuffix(".db") })
        let handle = try #require(FileHandle(forWritingAtPath: "\(folder)/\(file)"))
        try handle.seek(toOffset: 4096)
        try handle.write(contentsOf: Data(repeating: 0x5A, count: 8192))
        try handle.close()
        let damaged = try verify()
        #expect(damaged.status == 3, "\(damaged.standardOutput)")
        #expect(damaged.standardOutput.contains("Fixture-extracted: text index damaged"), "\(damaged.standardOutput)")
        var repair = SyncOptions()
        repair.repair = true
        let run = try await SyncRun.of(engine, repair)
        #expect(run.names("installed").isEmpty && run.names("updated").isEmpty, "\(run.lines)")
        #expect(try verify().status == 0)
        #expect(try await Self.found("brown", engine).sorted() == [
            "Fixture-extracted:guide/bears.html", "Fixture-extracted:index.html",
        ])

        // Missing: a note (exit 0); the next sync builds it.
        try FileManager.default.removeItem(atPath: "\(folder)/\(file)")
        let missing = try verify()
        #expect(missing.status == 0)
        #expect(missing.standardOutput.contains("Fixture-extracted: text index missing"), "\(missing.standardOutput)")
        _ = try await SyncRun.of(engine)
        #expect(try await Self.found("brown", engine).count == 2)
    }

    @Test func relayoutGivesTheNewVersionATextIndex() async throws {
        let installed = try await FullTextSearchTests.install([.extracted])
        defer { installed.dir.remove() }
        var configuration = installed.configuration
        configuration.install.layout = .tarix
        let engine = SyncEngine(configuration: configuration)
        let results = try await engine.relayout()
        #expect(results.count == 1)
        #expect(try engine.installedDocsets().map(\.layout) == [.tarix])
        #expect(try await Self.found("\"quick brown fox\"", engine) == ["Fixture-extracted:index.html"])
        let folder = configuration.state + "/fulltext"
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".db") }.count == 1)
    }

    @Test func anIndexOfAnOlderLayoutIsRebuiltByTheNextSync() async throws {
        let installed = try await FullTextSearchTests.install([.extracted])
        defer { installed.dir.remove() }
        let folder = installed.configuration.state + "/fulltext"
        let files = try FileManager.default.contentsOfDirectory(atPath: folder)
        let path = "\(folder)/\(try #require(files.first { $0.hasSuffix(".db") }))"
        #expect(FullTextReader.meta(path: path)["layout"] == FullTextWriter.layoutVersion)
        #expect(!FullTextWriter.isOutdated(path: path))
        // Layout 2: no `pairs`, no `paired`.
        let queue = try DatabaseQueue(path: path)
        try await queue.write { db in
            try db.execute(sql: "DROP TABLE pairs; DROP TABLE paired; UPDATE meta SET value = '2' WHERE key = 'layout'")
        }
        try queue.close()
        #expect(FullTextWriter.isOutdated(path: path))
        #expect(FullTextReader.problem(path: path) == nil)
        #expect(try await Self.found("\"quick brown fox\"", installed.engine) == ["Fixture-extracted:index.html"])
        let run = try await SyncRun.of(installed.engine)
        #expect(run.names("installed").isEmpty && run.names("updated").isEmpty, "\(run.lines)")
        #expect(FullTextReader.meta(path: path)["layout"] == FullTextWriter.layoutVersion)
        #expect(try await Self.found("\"quick brown fox\"", installed.engine) == ["Fixture-extracted:index.html"])
        #expect(try await Self.found("brown -fox", installed.engine) == ["Fixture-extracted:guide/bears.html"])
    }
}
