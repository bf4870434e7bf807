import DocSync
import DocSyncInstall
import DocSyncSupport
import Foundation
import TestSupport
import Testing

/// Installs docsets as docsync does (with its index preparation) and checks that Zeal, opening them its way on
/// read-only files, needs to write nothing, and that a thousand searches change no byte.
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct InstalledIndexTests {
    struct Installed {
        let dir: TemporaryDirectory
        let root: String
        let dash: InstalledDocset
        let apple: InstalledDocset
        var state: String { dir.appending("state") }
    }

    static func install() async throws -> Installed {
        let dir = try TemporaryDirectory("installed-index")
        let sources = dir.appending("sources")
        let dash = try IndexFixture.dash("C", in: sources, Samples.dash)
        let apple = try IndexFixture.coreData("Foundation", in: sources, Samples.coreData, wal: true)
        try IndexFixture.archive(dash, to: dir.appending("c.tgz"))
        try IndexFixture.archive(apple, to: dir.appending("foundation.tgz"))
        let root = dir.appending("root")
        let installer = Installer(root: root)
        let c = try await installer.install(
            archive: dir.appending("c.tgz"), as: InstallRequest(name: "C", version: "1"))
        let f = try await installer.install(
            archive: dir.appending("foundation.tgz"), as: InstallRequest(name: "Foundation", version: "2"))
        return Installed(dir: dir, root: root, dash: InstalledDocset(c), apple: InstalledDocset(f))
    }

    @Test func preparedForZealAndReadOnly() async throws {
        let installed = try await Self.install()
        defer { installed.dir.remove() }
        for (docset, steps) in [
            (installed.dash, ["zeal-index"]), (installed.apple, ["wal-checkpoint", "zeal-index", "zeal-view"]),
        ] {
            let meta =
                try JSONSerialization.jsonObject(
                    with: Data(contentsOf: URL(fileURLWithPath: "\(docset.path)/meta.json"))) as? [String: Any]
            let record = (meta?["extra"] as? [String: Any])?["docsync"] as? [String: Any]
            #expect(record?["prepared"] as? [String] == steps)
            let resources = try FileManager.default.contentsOfDirectory(atPath: "\(docset.path)/Contents/Resources")
            #expect(resources.sorted() == ["Documents", "docSet.dsidx"])
            for (path, entry) in try IndexFixture.hashes(docset.path) {
                if entry.hasPrefix("file ") { #expect(entry.hasPrefix("file 444 "), "\(path): \(entry)") }
                if entry.hasPrefix("dir ") { #expect(entry == "dir 755", "\(path): \(entry)") }
            }
        }
        // The checkpointed index is self-contained: even an immutable open sees every token.
        #expect(
            try IndexFixture.sqliteCount("file:\(installed.apple.indexPath)?immutable=1", "SELECT count(*) FROM ztoken")
                == Samples.coreData.count)
    }

    /// Zeal's exact statements, on a read-only open (`mode=ro`, what a user without write permission gets; root
    /// bypasses file modes) and on a read-write open as Zeal does it: the index and view exist, so
    /// `CREATE … IF NOT EXISTS` is a no-op, search works, and no file changes or appears.
    @Test func zealOpensWithoutWriting() async throws {
        let installed = try await Self.install()
        defer { installed.dir.remove() }
        let before = try IndexFixture.hashes(installed.root)
        for docset in [installed.dash, installed.apple] {
            let coreData = docset.name == "Foundation"
            let table = coreData ? "ztoken" : "searchIndex"
            let list = try Tool.run(
                "/usr/bin/sqlite3", ["file:\(docset.indexPath)?mode=ro", "PRAGMA INDEX_LIST('\(table)')"])
            #expect(list.standardOutput.contains("__zi_name0001"))
            let statements =
                [coreData ? ZealSQL.coreDataIndex : ZealSQL.dashIndex]
                + (coreData ? [ZealSQL.view] : []) + [
                    "SELECT count(*) FROM (\(ZealSQL.search("s", coreData: coreData)))"
                ]
            let expected = (coreData ? Samples.coreData : Samples.dash).filter { $0.name.lowercased().contains("s") }
            for uri in ["file:\(docset.indexPath)?mode=ro", docset.indexPath] {
                let result = try Tool.run("/usr/bin/sqlite3", [uri, statements.joined(separator: ";\n")])
                #expect(result.status == 0, "\(uri): \(result.standardError)")
                #expect(Int(result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)) == expected.count)
            }
        }
        #expect(try IndexFixture.hashes(installed.root) == before)
    }

    /// Every installed file hashed before and after a thousand searches of every kind: not one byte differs, no file
    /// appears, and the derived indexes are in the state folder only.
    @Test func thousandSearchesWriteNothing() async throws {
        let installed = try await Self.install()
        defer { installed.dir.remove() }
        let before = try IndexFixture.hashes(installed.root)
        let index = DocsetIndex(
            docsets: [installed.dash, installed.apple].map {
                IndexedDocset(name: $0.name, version: $0.version, path: $0.path)
            }, stateDirectory: installed.state)
        let queries = [
            "printf", "PRINT", "vector", "nsstr", "length", "nsmarr", "s", "x'); DROP TABLE entry; --", "%", "_",
        ]
        var hits = 0
        for i in 0..<1000 {
            let results = index.searchBlocking(
                SearchQuery(queries[i % queries.count], types: i % 7 == 0 ? ["Method"] : [], limit: 1 + i % 30))
            #expect(results.failures.isEmpty)
            hits += results.hits.count
        }
        #expect(hits > 1000)
        #expect(try IndexFixture.hashes(installed.root) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(installed.state)/index").count == 2)
    }
}
