import DocSync
import Foundation
import TestSupport
import Testing

/// `docsync search 'kw:text'` over installed docsets: keywords from each docset's Info.plist and from
/// `[[docset]] keywords`, shown by `status`; a keyword alone lists entries A–Z; an unknown keyword exits 1 naming
/// the keywords there are.
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct KeywordCommandTests {
    @Test func searchesByKeyword() async throws {
        let h = try ReaderHarness()
        defer { h.remove() }
        // Both fixtures have Info.plist DocSetPlatformFamily "fixture"; B also gets "bee" from the configuration.
        try await h.install("A", version: "1", fixture: try DocsetFixture.make(version: "1", indexRows: 12))
        try await h.install("B", version: "2", fixture: try DocsetFixture.make(version: "2", indexRows: 3))
        let toml = try String(contentsOfFile: h.configPath, encoding: .utf8)
        try (toml + "[[docset]]\nname = \"B\"\nkeywords = [\"Bee\"]\n").write(
            toFile: h.configPath, atomically: true, encoding: .utf8)
        func run(_ arguments: String...) throws -> Tool.Result {
            try Tool.run(Tool.docsyncBinary, arguments + ["--config", h.configPath])
        }

        let scoped = try run("search", "BEE:sym1", "--json", "--limit", "50")
        #expect(scoped.status == 0, "\(scoped)")
        let docsets = scoped.standardOutput.split(separator: "\n").map { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["docset"] as? String
        }
        #expect(docsets == ["B"], "\(scoped.standardOutput)")

        // `fixture:` lists every entry of both A-Z (more than the default limit of 20 would allow: 15 here).
        let listing = try run("search", "fixture:", "--json")
        #expect(listing.status == 0, "\(listing)")
        let names = listing.standardOutput.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["name"] as? String
        }
        #expect(names.count == 15 && names == names.sorted(), "\(names)")

        // `std::vector`-style text is not a keyword prefix: a plain search with no hits, exit 1, no message.
        let plain = try run("search", "sym::x")
        #expect(plain.status == 1 && plain.standardError.isEmpty, "\(plain)")

        let unknown = try run("search", "rust:vec")
        #expect(unknown.status == 1 && unknown.standardOutput.isEmpty, "\(unknown)")
        #expect(unknown.standardError.contains(#"no docset has the keyword "rust" (keywords: bee, fixture)"#))

        let status = try run("status", "--json")
        #expect(status.status == 0, "\(status)")
        let object = try JSONSerialization.jsonObject(with: Data(status.standardOutput.utf8)) as? [String: Any]
        let listed = (object?["docsets"] as? [[String: Any]] ?? []).map { ($0["name"] as? String, $0["keywords"]) }
        #expect(listed.map(\.0) == ["A", "B"])
        #expect(listed.map { $0.1 as? [String] } == [["fixture"], ["fixture", "bee"]], "\(status.standardOutput)")
        let text = try run("status")
        #expect(text.standardOutput.contains("keywords: fixture, bee"), "\(text.standardOutput)")
    }
}
