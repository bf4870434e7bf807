import DocSync
import Foundation
import TestSupport
import Testing

/// `docsync entries`, and `--root` / `--state` / `@group` on the reading commands, run as a user would: a root
/// installed with `docsync install --root`, read without any configuration file.
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct EntriesCommandTests {
    struct Root {
        let dir: TemporaryDirectory
        var root: String { dir.appending("root") }
        var state: String { dir.appending("state") }
        /// No configuration file anywhere docsync looks.
        var environment: [String: String] {
            var env = ProcessInfo.processInfo.environment
            env["DOCSYNC_CONFIG"] = nil
            env["XDG_CONFIG_HOME"] = dir.appending("no-config")
            env["XDG_CONFIG_DIRS"] = dir.appending("no-config")
            return env
        }

        func run(_ arguments: [String]) throws -> Tool.Result {
            try Tool.run(Tool.docsyncBinary, arguments, environment: environment)
        }
    }

    static func installed() throws -> (Root, [LayoutFixtures.Fixture]) {
        let root = Root(dir: try TemporaryDirectory("entries-cli"))
        let fixtures = [
            try LayoutFixtures.cups(in: root.dir.appending("sources")),
            try LayoutFixtures.appleBeside(in: root.dir.appending("sources")),
            try LayoutFixtures.dashRefs(in: root.dir.appending("sources")),
        ]
        for fixture in fixtures {
            let archive = root.dir.appending("\(fixture.name).tgz")
            try IndexFixture.archive(fixture.folder, to: archive)
            let result = try root.run(["install", archive, "--root", root.root, "--name", fixture.name])
            #expect(result.status == 0, "\(result.standardError)")
        }
        return (root, fixtures)
    }

    @Test func entriesStreamJSONLinesWhoseURLsOpen() throws {
        let (root, fixtures) = try Self.installed()
        defer { root.dir.remove() }
        for fixture in fixtures {
            let result = try root.run(["entries", fixture.name, "--root", root.root, "--state", root.state, "--json"])
            #expect(result.status == 0, "\(result.standardError)")
            let lines = result.standardOutput.split(separator: "\n")
            #expect(lines.count == fixture.entryCount)
            for line in lines {
                let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                #expect(Set(object?.keys.map { $0 } ?? []) == ["name", "type", "raw_type", "page", "fragment", "url"])
                let url = URL(string: object?["url"] as? String ?? "")
                #expect(url?.isFileURL == true)
                #expect(FileManager.default.fileExists(atPath: url?.path ?? "/nonexistent"), "\(line)")
                let page = object?["page"] as? String ?? ""
                #expect(
                    FileManager.default.fileExists(
                        atPath: "\(root.root)/\(fixture.name).docset/Contents/Resources/Documents/\(page)"))
            }
        }
        let cups = try root.run(["entries", "cups", "--root", root.root])
        #expect(cups.status == 0)
        #expect(cups.standardOutput.contains("cupsGetDests\tFunction\tfile://"))
        let unknown = try root.run(["entries", "Nope", "--root", root.root])
        #expect(unknown.status == 64)
        #expect(unknown.standardError.contains("no docset Nope"))
    }

    @Test func searchStatusAndVerifyTakeARootWithoutAConfiguration() throws {
        let (root, _) = try Self.installed()
        defer { root.dir.remove() }
        let search = try root.run(["search", "cupsGetDests", "--root", root.root, "--state", root.state, "--json"])
        #expect(search.status == 0, "\(search.standardError)")
        let hit =
            try JSONSerialization.jsonObject(with: Data(search.standardOutput.split(separator: "\n")[0].utf8))
            as? [String: Any]
        let url = URL(string: hit?["url"] as? String ?? "")
        #expect(url?.path.hasSuffix("/Contents/Resources/Documentation/help/api-cups.html") == true)
        #expect(FileManager.default.fileExists(atPath: url?.path ?? "/nonexistent"))
        // The hit names its page as `entries` does (Apple's layout: below Resources, not Documents), its anchor
        // and the index's own type.
        #expect(hit?["page"] as? String == "Documentation/help/api-cups.html", "\(hit ?? [:])")
        #expect(hit?["fragment"] as? String == "cupsGetDests" && hit?["raw_type"] as? String == "func")
        let status = try root.run(["status", "--root", root.root, "--state", root.state])
        #expect(status.status == 0, "\(status.standardError)")
        #expect(status.standardOutput.contains("CUPS"))
        #expect(!status.standardOutput.contains("Zeal cannot load"))
        let statusJSON = try root.run(["status", "--root", root.root, "--state", root.state, "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(statusJSON.standardOutput.utf8)) as? [String: Any]
        let readers = object?["readers"] as? [[String: Any]] ?? []
        #expect(readers.count == 3)
        for reader in readers {
            #expect(reader["zeal_loadable"] as? Bool == true, "\(reader)")
            let start = URL(string: reader["start_url"] as? String ?? "")
            #expect(FileManager.default.fileExists(atPath: start?.path ?? "/nonexistent"), "\(reader)")
        }
        #expect(
            readers.first { $0["name"] as? String == "CUPS" }?["start_page"] as? String
                == "Documentation/help/api-cups.html")
        let verify = try root.run(["verify", "--root", root.root])
        #expect(verify.status == 0, "\(verify.standardError)")
        #expect(verify.standardOutput.contains("intact    CUPS"))
        #expect(verify.standardOutput.contains("intact    DashRefs"))
        // Without --root and without a configuration, the old clear error stays.
        let bare = try root.run(["search", "x"])
        #expect(bare.status == 78)
    }

    @Test func groupsScopeSearchesAndEntries() throws {
        let (root, _) = try Self.installed()
        defer { root.dir.remove() }
        let config = root.dir.appending("docsync.toml")
        try Data(
            """
            root = "\(root.root)"
            state = "\(root.state)"
            [[group]]
            name = "apple"
            docsets = ["CUPS", "Beside"]
            """.utf8
        ).write(to: URL(fileURLWithPath: config))
        let scoped = try root.run(["search", "e", "--config", config, "--docset", "@apple", "--json", "--limit", "100"])
        #expect(scoped.status == 0, "\(scoped.standardError)")
        let docsets = Set(
            try scoped.standardOutput.split(separator: "\n").map {
                (try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["docset"] as? String ?? ""
            })
        #expect(docsets == ["CUPS", "Beside"])
        let all = try root.run(["search", "e", "--config", config, "--json", "--limit", "100"])
        #expect(all.standardOutput.contains("\"docset\":\"DashRefs\""))
        let entries = try root.run(["entries", "@apple", "--config", config])
        #expect(entries.status == 0)
        #expect(entries.standardOutput.split(separator: "\n").count == 7)
        let unknown = try root.run(["search", "e", "--config", config, "--docset", "@web"])
        #expect(unknown.status == 64)
        #expect(unknown.standardError.contains("[[group]] name = \"web\""))

        try Data("[[group]]\nname = \"web\"\n".utf8).write(to: URL(fileURLWithPath: config))
        let bad = try root.run(["search", "e", "--config", config])
        #expect(bad.status == 78)
        #expect(bad.standardError.contains("group[1].docsets"), "\(bad.standardError)")
    }
}

/// `DocsetGroups` in the library: `@name` selectors in `SearchQuery.docsets`.
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct DocsetGroupsTests {
    @Test func expandsGroupsIgnoringCase() {
        let groups = DocsetGroups(["web": ["JavaScript", "CSS", "HTML"]])
        #expect(groups.expand(["@WEB", "Python"]).docsets == ["JavaScript", "CSS", "HTML", "Python"])
        #expect(groups.expand(["@nope"]).unknown == ["nope"])
        #expect(groups.expand(["@nope"]).docsets.isEmpty)
    }

    @Test func searchQueriesSelectAGroup() throws {
        let dir = try TemporaryDirectory("groups")
        defer { dir.remove() }
        let sources = dir.appending("docsets")
        let c = try IndexFixture.dash("C", in: sources, Samples.dash)
        let foundation = try IndexFixture.coreData("Foundation", in: sources, Samples.coreData)
        let index = DocsetIndex(
            docsets: [
                IndexedDocset(name: "C", version: nil, path: c),
                IndexedDocset(name: "Foundation", version: nil, path: foundation),
            ],
            stateDirectory: dir.appending("state"), groups: DocsetGroups(["apple": ["foundation"]]))
        let hits = index.searchBlocking(SearchQuery("s", docsets: ["@apple"], limit: 100)).hits
        #expect(!hits.isEmpty)
        #expect(Set(hits.map(\.docset)) == ["Foundation"])
        #expect(index.searchBlocking(SearchQuery("s", docsets: ["@unknown"], limit: 100)).hits.isEmpty)
    }
}
