import DocSync
import DocSyncConfigFile
import Foundation
import Testing

@Suite(.timeLimit(.minutes(5))) struct CatalogConfigurationTests {
    let loader = DocSyncConfigurationLoader(environment: ["HOME": "/home/u"])

    func parse(_ text: String) throws(DocSyncConfigurationError) -> DocSyncConfiguration {
        try loader.parse(text, file: "/etc/docsync/docsync.toml", relativeTo: "/etc/docsync")
    }

    @Test func defaultsArePublicCatalogues() throws {
        let config = try parse("")
        #expect(config.catalogs == DocSyncConfiguration.Catalogs())
        #expect(config.catalogs.zeal == "https://api.zealdocs.org/v1/docsets")
        #expect(config.catalogs.indexes.map(\.source) == [.zeal, .contrib, .cheatsheets])
        #expect(config.docsets.isEmpty)
    }

    @Test func theShippedConfigurationDocumentsTheDefaults() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../config/docsync.toml").standardized.path
        let config = try loader.load(file: file)
        #expect(config.catalogs == DocSyncConfiguration.Catalogs())
        #expect(config.docsets.isEmpty)
    }

    @Test func everyCatalogKeyLoads() throws {
        let config = try parse(
            """
            [catalog]
            mirrors = ["https://mirror.campus.example/kapeli/feeds"]
            [catalog.zeal]
            url = "catalogues/zeal.json"
            [catalog.kapeli]
            base_url = "https://mirror.campus.example/kapeli/feeds"
            [catalog.contrib]
            url = ""
            [catalog.cheatsheets]
            url = "https://mirror.campus.example/cheat.json"

            [[docset]]
            name = "Python_3"
            version = "3.9.6"
            [[docset]]
            name = "Jest"
            source = "Contrib"
            """)
        #expect(config.catalogs.alternates == ["https://mirror.campus.example/kapeli/feeds"])
        #expect(config.catalogs.zeal == "/etc/docsync/catalogues/zeal.json")
        #expect(config.catalogs.contrib == nil)
        #expect(config.catalogs.indexes.map(\.source) == [.zeal, .cheatsheets])
        #expect(
            config.docsets == [
                .init(name: "Python_3", version: "3.9.6"), .init(name: "Jest", source: .contrib),
            ])
    }

    /// `keywords` are added to the installed docset's own, lowercased.
    @Test func keywordsLoadLowercased() throws {
        let config = try parse(
            "[[docset]]\nname = \"Python_3\"\nkeywords = [\"Py\", \"snake\"]\n[[docset]]\nname = \"Go\"")
        #expect(config.docsets.map(\.keywords) == [["py", "snake"], []])
        #expect(config.configuredKeywords(for: "python_3") == ["py", "snake"])
        #expect(config.configuredKeywords(for: "Rust") == [])
        let kept = try parse("[[docset]]\nname = \"Python_3\"\nversions = [\"3.12\", \"latest\"]")
        #expect(kept.docsets.first?.versions == ["3.12", "latest"] && kept.docsets.first?.version == nil)
    }

    /// A `[[docset]] name = "Py"` with `versions` (its line) and a group `g` of `members`.
    static func grouped(_ versions: String, _ members: [String]) -> String {
        let list = members.map { "\"\($0)\"" }.joined(separator: ", ")
        return "[[docset]]\nname = \"Py\"\n\(versions)\n[[group]]\nname = \"g\"\ndocsets = [\(list)]"
    }

    /// Group members naming versions the selection installs, or of docsets no `[[docset]]` selects, load.
    @Test func groupMembersNamingKeptVersionsLoad() throws {
        for (versions, members) in [
            ("versions = [\"3.11\", \"3.12.0\"]", ["PY@3.11", "Py@3.12", "Go@1.22"]),
            ("versions = [\"3.11\", \"latest\"]", ["Py@3.13"]), ("version = \"3.11\"", ["Py@3.11"]),
            ("keywords = [\"py\"]", ["Py@3.13"]),
        ] {
            let config = try parse(Self.grouped(versions, members))
            #expect(config.groups.expand(["@g"]).docsets == members)
        }
    }

    @Test(arguments: [
        ("[[docset]]\nversion = \"1\"", "docset[1].name", "missing"),
        ("[[docset]]\nname = \"A\"\nsource = \"npm\"", "docset[1].source", "not a catalogue"),
        ("[[docset]]\nname = \"A\"\n[[docset]]\nname = \"a\"", "docset[2].name", "selected twice"),
        ("[[docset]]\nname = \"A\"\ncolour = 1", "docset[1].colour", "unknown key"),
        ("[catalog]\nmirrors = [\"ftp://x\"]", "catalog.mirrors[1]", "http(s) URL"),
        ("[catalog.zeal]\nurl = \"ftp://x\"", "catalog.zeal.url", "only http"),
        ("[catalog.zeal]\nuri = \"x\"", "catalog.zeal.uri", "unknown key"),
        ("[catalog.npm]\nurl = \"x\"", "catalog.npm", "unknown key"),
        ("[[docset]]\nname = \"A\"\nkeywords = \"py\"", "docset[1].keywords", "expected an array of keywords"),
        ("[[docset]]\nname = \"A\"\nkeywords = [\"py\", \"\"]", "docset[1].keywords[2]", "expected a keyword"),
        ("[[docset]]\nname = \"A\"\nkeywords = [\"py:3\"]", "docset[1].keywords[1]", "expected a keyword"),
        ("[[docset]]\nname = \"A\"\nkeywords = [\"a,b\"]", "docset[1].keywords[1]", "expected a keyword"),
        ("[[docset]]\nname = \"A\"\nkeywords = [\"my py\"]", "docset[1].keywords[1]", "expected a keyword"),
        ("[[docset]]\nname = \"A\"\nkeywords = [1]", "docset[1].keywords[1]", "expected a keyword"),
        ("[[docset]]\nname = \"A\"\nkeywords = [\"py\", \"PY\"]", "docset[1].keywords[2]", "listed twice"),
        ("[[docset]]\nname = \"A\"\nversions = []", "docset[1].versions", "empty"),
        ("[[docset]]\nname = \"A\"\nversions = [\"1\", \"1\"]", "docset[1].versions[2]", "listed twice"),
        ("[[docset]]\nname = \"A\"\nversions = [\"1\", \"\"]", "docset[1].versions[2]", "expected a version"),
        ("[[docset]]\nname = \"A\"\nversions = \"1\"", "docset[1].versions", "expected an array"),
        ("[[docset]]\nname = \"A\"\nversion = \"1\"\nversions = [\"2\"]", "docset[1].versions", "both"),
        // A [[group]] member naming a version its [[docset]] does not install.
        (
            CatalogConfigurationTests.grouped("versions = [\"3.11\", \"3.12\"]", ["Go", "py@3.12", "Py@3.10"]),
            "group[1].docsets[3]",
            "\"Py@3.10\" names a version [[docset]] \"Py\" does not install (its versions: \"3.11\", \"3.12\")"
        ),
        (
            CatalogConfigurationTests.grouped("version = \"3.11\"", ["Py@3.12"]), "group[1].docsets[1]",
            "(its version: \"3.11\")"
        ),
    ])
    func badValuesNameTheKey(text: String, key: String, problem: String) {
        #expect {
            try parse(text)
        } throws: { error in
            guard let error = error as? DocSyncConfigurationError else { return false }
            return error.key == key && error.problem.contains(problem)
        }
    }
}
