import DocSync
import Foundation
import TestSupport
import Testing

/// Keyword prefixes as Zeal and Dash users type them: the parse of `SearchQuery::fromString`
/// (zealdocs/zeal `src/libs/registry/searchquery.cpp`), a docset's keywords as `Docset::Docset` and
/// `Docset::loadMetadata` gather them (`docset.cpp`), and `DocsetIndex` scoping and listing by keyword.
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct KeywordSearchTests {
    /// Each case follows from `fromString`: a `:` at index > 0 separates keywords unless the next character is a
    /// `:` that is not followed by another one.
    @Test(
        arguments: [
            ("std::vector", [], "std::vector"),
            ("py,django:view", ["py", "django"], "view"),
            ("html:", ["html"], ""),
            ("py:open", ["py"], "open"),
            ("c++:std::vector", ["c++"], "std::vector"),
            (":open", [], ":open"),
            ("a:::b", ["a"], "::b"),
            ("a::b", [], "a::b"),
            ("  py :  open  ", ["py"], "open"),
            ("py, django:view", ["py", " django"], "view"),
            ("py,:x", ["py", ""], "x"),
            ("", [], ""),
            ("  plain text ", [], "plain text"),
            ("PY:Open", ["PY"], "Open"),
            ("a:b:c", ["a"], "b:c"),
        ] as [(String, [String], String)])
    func parsesAsZeal(input: String, keywords: [String], text: String) {
        let parsed = KeywordQuery(parsing: input)
        #expect(parsed.keywords == keywords, "\(input)")
        #expect(parsed.text == text, "\(input)")
        let query = SearchQuery(parsing: input)
        #expect(query.keywords == keywords && query.text == text)
        #expect(query.isListing == (text.isEmpty && !keywords.isEmpty))
    }

    @Test func matchesIgnoringCase() {
        #expect(KeywordQuery(parsing: "PY,go:x").matches(["python", "py"]))
        #expect(KeywordQuery(parsing: "py:x").matches(["PY"]))
        #expect(!KeywordQuery(parsing: "py:x").matches(["python"]))
        #expect(!KeywordQuery(parsing: "py, go:x").matches(["go"]))  // " go" is not "go", as in Zeal
        #expect(KeywordQuery(parsing: "py,django:view").description == "py,django:view")
    }

    /// meta.json's `extra.keywords` first, then Info.plist's keys in Zeal's order (`DashDocSetFamily` unless it
    /// is a `dashtoc` family), then the configuration's; lowercased, first occurrence kept, empty ones dropped.
    @Test func gathersKeywordsAsZeal() {
        #expect(DocsetKeywords.merged(meta: [], plist: [:]) == [])
        #expect(
            DocsetKeywords.merged(
                meta: ["Py3", "python"],
                plist: [
                    "DocSetPlatformFamily": "python", "DashDocSetPluginKeyword": "PY", "DashDocSetKeyword": "py3",
                    "DashDocSetFamily": "python", "CFBundleName": "Python",
                ], configured: ["snake", "py"]) == ["py3", "python", "py", "snake"])
        #expect(DocsetKeywords.merged(meta: [], plist: ["DashDocSetFamily": "dashtoc"]) == [])
        #expect(DocsetKeywords.merged(meta: [], plist: ["DashDocSetFamily": "dashtoc3"]) == [])
        #expect(DocsetKeywords.merged(meta: [], plist: ["DashDocSetFamily": "HTML"]) == ["html"])
        #expect(DocsetKeywords.merged(meta: [""], plist: ["DocSetPlatformFamily": ""]) == [])
    }

    @Test func readsKeywordsFromTheFolder() throws {
        let dir = try TemporaryDirectory("keywords")
        defer { dir.remove() }
        let folder = try IndexFixture.dash("Python", in: dir.path, Samples.dash)
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>CFBundleName</key><string>Python</string>
            <key>DocSetPlatformFamily</key><string>Python</string>
            <key>DashDocSetKeyword</key><string>py</string></dict></plist>
            """
        try Data(plist.utf8).write(to: URL(fileURLWithPath: "\(folder)/Contents/Info.plist"))
        try Data(#"{"name":"Python","extra":{"keywords":["snake",3]}}"#.utf8)
            .write(to: URL(fileURLWithPath: "\(folder)/meta.json"))
        #expect(DocsetKeywords.read(docsetPath: folder, configured: ["Py3"]) == ["snake", "python", "py", "py3"])
        // A symlinked Info.plist is not followed; a missing folder has none.
        try FileManager.default.removeItem(atPath: "\(folder)/Contents/Info.plist")
        try FileManager.default.createSymbolicLink(
            atPath: "\(folder)/Contents/Info.plist", withDestinationPath: dir.appending("elsewhere.plist"))
        try Data(plist.utf8).write(to: URL(fileURLWithPath: dir.appending("elsewhere.plist")))
        #expect(DocsetKeywords.read(docsetPath: folder) == ["snake"])
        #expect(DocsetKeywords.read(docsetPath: dir.appending("none")) == [])
    }

    /// `kw:text` searches only the docsets with keyword `kw`; `kw:` lists their entries A–Z; a keyword no docset
    /// has is `unknown_keyword`, naming the keywords there are.
    @Test func scopesAndListsByKeyword() async throws {
        let dir = try TemporaryDirectory("keywords")
        defer { dir.remove() }
        let c = try IndexFixture.dash("C", in: dir.path, Samples.dash)
        let foundation = try IndexFixture.coreData("Foundation", in: dir.path, Samples.coreData)
        let index = DocsetIndex(
            docsets: [
                IndexedDocset(name: "C", version: "11", path: c, keywords: ["c", "cpp"]),
                IndexedDocset(name: "Foundation", version: nil, path: foundation, keywords: ["objc", "macos"]),
            ], stateDirectory: dir.appending("state"))

        let everywhere = try await index.search(SearchQuery(parsing: "s", limit: 100)).hits
        #expect(Set(everywhere.map(\.docset)) == ["C", "Foundation"])
        let scoped = try await index.search(SearchQuery(parsing: "OBJC:s", limit: 100)).hits
        #expect(!scoped.isEmpty && scoped.allSatisfy { $0.docset == "Foundation" })
        let either = try await index.search(SearchQuery(parsing: "cpp,objc:s", limit: 100)).hits
        #expect(Set(either.map(\.docset)) == ["C", "Foundation"])
        // With --docset too: both must hold.
        let none = try await index.search(SearchQuery(parsing: "objc:s", docsets: ["C"], limit: 100)).hits
        #expect(none.isEmpty)

        let listing = try await index.search(SearchQuery(parsing: "c:", limit: 1000)).hits
        #expect(listing.map(\.name) == Samples.dash.map(\.name).sorted { $0.lowercased() < $1.lowercased() })
        #expect(listing.allSatisfy { $0.docset == "C" })
        #expect(listing.first?.url.absoluteString == "file://\(c)/Contents/Resources/Documents/guides/printing.html")
        let both = try await index.search(SearchQuery(parsing: "c,macos:", limit: 4)).hits
        #expect(both.map(\.name) == ["Guide to printing", "length", "NSMutableArray", "NSString"])
        let functions = try await index.search(SearchQuery(parsing: "c:", types: ["Function"], limit: 50)).hits
        #expect(functions.map(\.name) == ["printf", "sprintf", "std::vector::push_back"])
        // A plain empty query still finds nothing.
        #expect(try await index.search(SearchQuery(parsing: "", limit: 50)).hits.isEmpty)

        do {
            _ = try await index.search(SearchQuery(parsing: "rust,go:vec"))
            Issue.record("an unknown keyword must throw")
        } catch {
            #expect(error.kind == .unknownKeyword)
            #expect(
                error.description
                    == #"search query: no docset has the keywords "rust", "go" (keywords: c, cpp, macos, objc)"#)
        }
        #expect(index.unknownKeywords(SearchQuery(parsing: "rust,c:vec")) == nil)
    }
}
