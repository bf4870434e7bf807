import DocSync
import Foundation
import TestSupport
import Testing

/// `docsync catalog`, `add` and `drop` (the real binary: its output, exit statuses and the configuration file it
/// edits) against a catalogue it reads as a local file; the sync between them installs in process from a
/// `MemoryOrigin`.
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct CatalogCommandTests {
    @Test func catalogListsAndAddDropEditTheConfig() async throws {
        let h = try SyncHarness.inMemory()
        try h.publish(try DocsetFixture.make(version: "1.21"), at: "feeds/Go.tgz", folder: "Go")
        try h.writeZealCatalog([
            .init(name: "Go", title: "Go", versions: ["1.21"], aliases: ["golang"]),
            .init(name: "Python_3", title: "Python 3", versions: ["3.12.1"]),
            .init(name: "Bash", title: "Bash", versions: ["5.2"]),
        ])
        try h.writeCatalogConfig(docsets: [], zeal: "\(h.www)/zeal.json")
        let original = try String(contentsOfFile: h.configPath, encoding: .utf8)

        let unknown = try h.run(["add", "Pythn_3"])
        #expect(unknown.status == 65)
        #expect(unknown.standardError.contains("did you mean Python_3?"), "\(unknown.standardError)")
        let dry = try h.run(["add", "golang", "--dry-run"])
        #expect(dry.status == 0, "\(dry.standardError)")
        #expect(dry.standardOutput.contains("+[[docset]]\n+name = \"Go\""), "\(dry.standardOutput)")
        #expect(try String(contentsOfFile: h.configPath, encoding: .utf8) == original)

        #expect(try h.run(["add", "golang"]).status == 0)
        #expect(try h.configuration().docsets == [.init(name: "Go")])
        let sync = try await h.sync()
        #expect(sync.status == 0, "\(sync.lines)")
        #expect(sync.names("installed") == ["Go"], "\(sync.lines)")

        let listed = try h.run(["catalog", "--json"])
        #expect(listed.status == 0, "\(listed.standardError)")
        let listing = try #require(
            try JSONSerialization.jsonObject(with: Data(listed.standardOutput.utf8)) as? [String: Any])
        #expect(listing["schema"] as? Int == 1)
        let rows = try #require(listing["docsets"] as? [[String: Any]])
        #expect(rows.compactMap { $0["name"] as? String } == ["Bash", "Go", "Python_3"])
        #expect(rows[1]["installed"] as? String == "1.21" && rows[1]["latest"] as? String == "1.21")
        #expect(rows[1]["status"] as? String == "up to date")
        // Every member is always there, null when there is none.
        #expect(rows[0]["installed"] is NSNull && rows[0]["status"] is NSNull)
        #expect(rows[0]["installed_revision"] is NSNull)
        #expect(rows.allSatisfy { Set($0.keys).isSuperset(of: ["latest", "installed", "latest_revision", "status"]) })
        let table = try h.run(["catalog", "go"])
        #expect(table.standardOutput.contains("1.21 (up to date)"), "\(table.standardOutput)")
        let search = try h.run(["catalog", "pyth"])
        #expect(search.standardOutput.split(separator: "\n").dropFirst().map { $0.prefix(8) } == ["Python_3"])

        #expect(try h.run(["drop", "go"]).status == 0)
        #expect(try String(contentsOfFile: h.configPath, encoding: .utf8) == original)
        #expect(try h.run(["drop", "go"]).status == 65)
    }
}
