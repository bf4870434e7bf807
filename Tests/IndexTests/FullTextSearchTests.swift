import DocSync
import DocSyncIndex
import Foundation
import TestSupport
import Testing

/// Text indexes built at install for both layouts, searched through the library, `docsync search --text` and
/// `docsync cat --text`: what is found (words, phrases, prefixes, exclusions, diacritics, titles first), what is
/// not (script, style, template), and the index following its version (pruned with it).
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct FullTextSearchTests {
    static let pages: [String: String] = [
        "index.html": """
            <html><head><title>Alpha Guide</title><style>.stylish { color: red }</style></head>
            <body><h1>Welcome</h1><p>The quick brown fox jumps over the lazy dog.</p>
            <script>var secretword = "brown";</script><template><p>templated</p></template>
            <p>&Eacute;l&egrave;ve au caf&eacute; &amp; friends</p></body></html>
            """,
        "guide/bears.html": """
            <html><head><title>Bears</title></head><body><p>A brown bear sleeps; no foxes here.</p>
            <p>Alpha appears once in the body.</p></body></html>
            """,
        "guide/other.htm": "<p>Nothing about animals, only prefetching and preferences.</p>",
        "data.json": "{\"brown\": true}",
    ]

    struct Installed {
        let dir: TemporaryDirectory
        let engine: SyncEngine
        var configuration: DocSyncConfiguration { engine.configuration }
    }

    static func install(_ layouts: [InstalledDocset.Layout] = [.extracted, .tarix]) async throws -> Installed {
        let dir = try TemporaryDirectory("fulltext")
        var fixture = try DocsetFixture.make(version: "1", documents: 0)
        for (page, html) in pages { fixture.files["Contents/Resources/Documents/\(page)"] = (Array(html.utf8), 0o644) }
        let archive = dir.appending("fixture.tgz")
        try fixture.writeArchive(to: archive)
        let engine = SyncEngine(
            configuration: DocSyncConfiguration(
                root: dir.appending("root"), staging: dir.appending("staging"), state: dir.appending("state")))
        for layout in layouts {
            try await engine.install(archive: archive, name: "Fixture-\(layout.rawValue)", version: "1", layout: layout)
        }
        return Installed(dir: dir, engine: engine)
    }

    static func pages(_ query: String, in installed: Installed, docset: String? = nil) async throws -> [String] {
        let index = try installed.engine.index()
        let results = try await index.fullTextSearch(TextSearchQuery(query, docsets: docset.map { [$0] } ?? []))
        #expect(results.failures.isEmpty)
        #expect(results.building.isEmpty)
        return results.hits.map { "\($0.docset):\($0.page)" }.sorted()
    }

    @Test func bothLayoutsFindWhatPagesSay() async throws {
        let installed = try await Self.install()
        defer { installed.dir.remove() }
        for layout in ["extracted", "tarix"] {
            let docset = "Fixture-\(layout)"
            func found(_ query: String) async throws -> [String] {
                try await Self.pages(query, in: installed, docset: docset).map {
                    String($0.dropFirst(docset.count + 1))
                }
            }
            #expect(try await found("brown") == ["guide/bears.html", "index.html"])
            #expect(try await found("\"quick brown fox\"") == ["index.html"])
            #expect(try await found("\"brown quick\"").isEmpty)
            #expect(try await found("pref*") == ["guide/other.htm"])
            #expect(try await found("brown -fox") == ["guide/bears.html"])
            #expect(try await found("eleve CAFE") == ["index.html"])
            #expect(try await found("secretword").isEmpty, "script text is not visible")
            #expect(try await found("stylish").isEmpty, "style text is not visible")
            #expect(try await found("templated").isEmpty, "template content is not visible")
            #expect(try await found("true").isEmpty, "only HTML pages are indexed")
        }
    }

    /// Zeal's keyword prefixes scope a text search as they scope a name search: both fixtures have the Info.plist
    /// keyword `fixture`; a keyword no docset has is `unknown_keyword`, naming the keywords there are.
    @Test func keywordPrefixesScopeATextSearch() async throws {
        let installed = try await Self.install()
        defer { installed.dir.remove() }
        #expect(try await Self.pages("FIXTURE:brown", in: installed) == Self.pages("brown", in: installed))
        #expect(try await Self.pages("fixture:\"quick brown fox\"", in: installed).count == 2)
        let index = try installed.engine.index()
        do {
            _ = try await index.fullTextSearch(TextSearchQuery("py:brown"))
            Issue.record("a keyword no docset has must throw")
        } catch {
            #expect(error.kind == .unknownKeyword && error.description.contains("fixture"), "\(error)")
        }
    }

    /// A docset filter naming a docset or group that is not installed is `not_installed`, naming it, as a name
    /// search's is; installed names (any case) and `NAME@VERSION` still answer.
    @Test func aFilterNamingADocsetThatIsNotInstalledIsATypedError() async throws {
        let installed = try await Self.install()
        defer { installed.dir.remove() }
        let index = try installed.engine.index()
        for filter in [["Nope"], ["Fixture-extracted", "Nope"], ["@nogroup"], ["Fixture-tarix@2"]] {
            do {
                _ = try await index.fullTextSearch(TextSearchQuery("brown", docsets: filter))
                Issue.record("\(filter) must throw")
            } catch {
                #expect(error.kind == .notInstalled, "\(filter): \(error)")
                #expect(error.description.contains(filter.last!), "\(error)")
            }
        }
        #expect(try await Self.pages("brown", in: installed, docset: "fixture-EXTRACTED").count == 2)
        #expect(try await Self.pages("brown", in: installed, docset: "Fixture-tarix@1").count == 2)
    }

    @Test func hitsCarryTitleSnippetAndURLTitleMatchesRankFirst() async throws {
        let installed = try await Self.install([.extracted])
        defer { installed.dir.remove() }
        let index = try installed.engine.index()
        let results = try await index.fullTextSearch(TextSearchQuery("alpha"))
        #expect(results.hits.map(\.page) == ["index.html", "guide/bears.html"])
        let hit = try #require(results.hits.last)
        #expect(hit.title == "Bears")
        #expect(hit.snippet.contains("**Alpha**"))
        #expect(hit.url.path.hasSuffix("/Contents/Resources/Documents/guide/bears.html"))
        #expect(FileManager.default.fileExists(atPath: hit.url.path))
        let page = try await installed.engine.installedDocsets()[0].text(of: "index.html")
        #expect(page.title == "Alpha Guide")
        #expect(page.text.hasPrefix("Welcome\nThe quick brown fox"))
    }

    @Test func badQueriesAreTypedErrorsNamingThePosition() async throws {
        let installed = try await Self.install([.extracted])
        defer { installed.dir.remove() }
        let index = try installed.engine.index()
        for query in ["", "\"open", "-only", String(repeating: "x", count: 1025)] {
            do {
                _ = try await index.fullTextSearch(TextSearchQuery(query))
                Issue.record("\(query.prefix(20)) was accepted")
            } catch {
                #expect(error.kind == .invalidQuery)
            }
        }
    }

    @Test func aDocsetWithoutTextIndexIsNamedAndGetsOneOnTheNextSync() async throws {
        let installed = try await Self.install([])
        defer { installed.dir.remove() }
        var fixture = try DocsetFixture.make(version: "1", documents: 0)
        fixture.files["Contents/Resources/Documents/a.html"] = (Array("<p>later words</p>".utf8), 0o644)
        try fixture.writeArchive(to: installed.dir.appending("a.tgz"))
        try await installed.engine.install(archive: installed.dir.appending("a.tgz"), name: "Late", fullText: false)
        let before = try await installed.engine.index().fullTextSearch(TextSearchQuery("later"))
        #expect(before.hits.isEmpty)
        #expect(before.missing == ["Late"])
        _ = try await SyncRun.of(installed.engine)  // no feed: nothing downloaded, the text index built
        let after = try await installed.engine.index().fullTextSearch(TextSearchQuery("later"))
        #expect(after.hits.map(\.page) == ["a.html"])
        #expect(after.missing.isEmpty)
    }

    @Test func theTextIndexFollowsItsVersion() async throws {
        let installed = try await Self.install([.extracted])
        defer { installed.dir.remove() }
        let folder = installed.configuration.state + "/fulltext"
        func indexes() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".db") }
        }
        #expect(try indexes().count == 1)
        var fixture = try DocsetFixture.make(version: "2", documents: 0)
        fixture.files["Contents/Resources/Documents/new.html"] = (Array("<p>second version</p>".utf8), 0o644)
        try fixture.writeArchive(to: installed.dir.appending("v2.tgz"))
        try await installed.engine.install(archive: installed.dir.appending("v2.tgz"), name: "Fixture-extracted")
        #expect(try indexes().count == 1)
        #expect(try await Self.pages("second", in: installed) == ["Fixture-extracted:new.html"])
        #expect(try await Self.pages("brown", in: installed).isEmpty)
        try await installed.engine.remove(name: "Fixture-extracted")
        #expect(try indexes().isEmpty)
    }

    @Test func theCommandLineSearchesAndReadsText() async throws {
        let installed = try await Self.install([.tarix])
        defer { installed.dir.remove() }
        var env = ProcessInfo.processInfo.environment
        env["DOCSYNC_CONFIG"] = nil
        env["XDG_CONFIG_HOME"] = installed.dir.appending("no-config")
        env["XDG_CONFIG_DIRS"] = installed.dir.appending("no-config")
        let where_ = ["--root", installed.configuration.root, "--state", installed.configuration.state]
        func run(_ arguments: [String]) throws -> Tool.Result {
            try Tool.run(Tool.docsyncBinary, arguments + where_, environment: env)
        }
        let found = try run(["search", "--text", "\"brown bear\"", "--json"])
        #expect(found.status == 0, "\(found.standardError)")
        let line = try #require(found.standardOutput.split(separator: "\n").first)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["docset"] as? String == "Fixture-tarix")
        #expect(object["page"] as? String == "guide/bears.html")
        #expect(object["title"] as? String == "Bears")
        #expect((object["snippet"] as? String)?.contains("**brown** **bear**") == true)
        #expect(try run(["search", "--text", "zebra"]).status == 1)
        let bad = try run(["search", "--text", "ok \"open"])
        #expect(bad.status == 64)
        #expect(bad.standardError.contains("position 4"))
        #expect(try run(["search", "--text", String(repeating: "a", count: 1025)]).status == 64)
        let text = try run(["cat", "Fixture-tarix", "index.html", "--text"])
        #expect(text.status == 0)
        #expect(text.standardOutput.hasPrefix("Alpha Guide\n\nWelcome\nThe quick brown fox"))
        #expect(!text.standardOutput.contains("secretword"))
        #expect(try run(["cat", "Fixture-tarix", "../../meta.json", "--text"]).status == 64)
        let status = try run(["status", "--json"])
        #expect(status.standardOutput.contains("\"text_indexes\""))
    }
}
