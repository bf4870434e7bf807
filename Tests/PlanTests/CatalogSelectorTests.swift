import DocSync
import DocSyncCatalog
import Foundation
import Testing

/// `[[docset]]` → candidate or skip: the pure step between the catalogues and the planner.
@Suite(.timeLimit(.minutes(5))) struct CatalogSelectorTests {
    static let alternates = CatalogAlternates(bases: ["https://m.test/feeds"])
    static let zeal = Catalog(
        source: .zeal,
        entries: [
            CatalogEntry(
                source: .zeal, name: "Python_3", title: "Python 3", versions: ["3.12.1", "3.9.6"], revision: "2",
                aliases: ["py3"], archives: ["https://m.test/feeds/Python_3.tgz"],
                feedURL: "https://k.test/feeds/Python_3.xml", size: 99,
                specificVersions: [.init(version: "3.9.6")]),
            CatalogEntry(
                source: .zeal, name: "Go", versions: ["1.21"], revision: "0", archives: ["https://m.test/feeds/Go.tgz"]),
        ])

    enum Outcome: Equatable, Sendable {
        case offer(name: String, version: String, archive: String, pinned: Bool)
        case skip(name: String, reasonContains: String)
    }

    struct Row: Sendable, CustomTestStringConvertible {
        var selection: DocSyncConfiguration.DocsetSelection
        var unavailable: Set<CatalogSource> = []
        var expected: Outcome
        var testDescription: String { "\(selection.name) \(selection.version ?? "")" }
    }

    static let rows: [Row] = [
        Row(
            selection: .init(name: "py3"),
            expected: .offer(
                name: "Python_3", version: "3.12.1/2", archive: "https://m.test/feeds/Python_3.tgz", pinned: false)),
        Row(
            selection: .init(name: "Python_3", version: "3.9.6"),
            expected: .offer(
                name: "Python_3", version: "3.9.6",
                archive: "https://m.test/feeds/zzz/versions/Python_3/3.9.6/Python_3.tgz", pinned: true)),
        Row(
            selection: .init(name: "Go"),
            expected: .offer(name: "Go", version: "1.21", archive: "https://m.test/feeds/Go.tgz", pinned: false)),
        Row(
            selection: .init(name: "Python_3", version: "2.7"),
            expected: .skip(name: "Python_3", reasonContains: "offered: 3.12.1, 3.9.6")),
        Row(
            selection: .init(name: "Pythn_3"),
            expected: .skip(name: "Pythn_3", reasonContains: "did you mean \"Python_3\"?")),
        Row(
            selection: .init(name: "Rust"), unavailable: [.contrib],
            expected: .skip(name: "Rust", reasonContains: "catalogue contrib could not be read")),
        Row(
            selection: .init(name: "Go", source: .cheatsheets),
            expected: .skip(name: "Go", reasonContains: "not in the catalogues")),
        Row(
            selection: .init(name: "Go", source: .kapeli),
            expected: .skip(name: "Go", reasonContains: "Kapeli's feed could not be read")),
    ]

    @Test(arguments: rows)
    func selects(row: Row) {
        let (selection, unavailable, expected) = (row.selection, row.unavailable, row.expected)
        let result = CatalogSelector.select(
            [selection], catalogs: [Self.zeal], unavailable: unavailable, alternates: Self.alternates)
        switch expected {
        case .offer(let name, let version, let archive, let pinned):
            let offer = result.offers.first
            #expect(result.skipped.isEmpty, "\(result.skipped)")
            #expect(offer?.name == name && offer?.version.description == version)
            #expect(offer?.archives.first == archive && offer?.pinned == pinned)
            #expect(offer?.catalog?.name == name)
        case .skip(let name, let fragment):
            #expect(result.offers.isEmpty)
            guard case .skipped(let skippedName, _, let reason)? = result.skipped.first else {
                Issue.record("expected a skip, got \(result)")
                return
            }
            #expect(skippedName == name)
            #expect(reason.contains(fragment), "\(reason)")
        }
    }

    /// `versions`: one candidate per version, the newest (`latest` first of all) under the catalogue's name, every
    /// other as `NAME@VERSION` with a title of its own, each pinned except `latest`.
    @Test func versionsSideBySide() {
        var both = DocSyncConfiguration.DocsetSelection(name: "py3")
        both.versions = ["3.9.6", "3.12.1"]
        let offers = CatalogSelector.select([both], catalogs: [Self.zeal], alternates: Self.alternates).offers
        #expect(offers.map(\.name) == ["Python_3", "Python_3@3.9.6"])
        #expect(offers.map(\.title) == ["Python 3 3.12.1", "Python 3 3.9.6"])
        #expect(offers.map(\.pinned) == [true, true])
        #expect(offers.last?.archives.first == "https://m.test/feeds/zzz/versions/Python_3/3.9.6/Python_3.tgz")
        var moving = both
        moving.versions = ["3.9.6", "latest"]
        let latest = CatalogSelector.select([moving], catalogs: [Self.zeal], alternates: Self.alternates).offers
        #expect(latest.map(\.name) == ["Python_3", "Python_3@3.9.6"])
        #expect(latest.map(\.pinned) == [false, true] && latest.first?.version.description == "3.12.1/2")
        // Kapeli's per-docset feed (`source = "kapeli"`): the same versions, through its other-versions.
        var kapeli = both
        kapeli.name = "Python_3"
        kapeli.source = .kapeli
        let fromFeed = CatalogSelector.select(
            [kapeli], catalogs: [], kapeli: ["Python_3": Self.zeal.entries[0]], alternates: Self.alternates
        ).offers
        #expect(fromFeed.map(\.name) == ["Python_3", "Python_3@3.9.6"])
        var missing = both
        missing.versions = ["2.7", "3.9.6"]
        let result = CatalogSelector.select([missing], catalogs: [Self.zeal], alternates: Self.alternates)
        #expect(result.offers.map(\.name) == ["Python_3"])
        guard case .skipped(let name, _, let reason)? = result.skipped.first else {
            Issue.record("expected a skip, got \(result)")
            return
        }
        #expect(name == "Python_3@2.7" && reason.contains("version 2.7 is not offered"), "\(reason)")
    }

    /// A docsync fleet mirror's catalogue lists each version its host keeps side by side as `NAME@VERSION`, with
    /// the kept title ("Python 3 3.12.1"): a member's `versions` take that entry's archive, checksum and size, and
    /// titles are not doubled.
    @Test func versionsFromAFleetMirrorsCatalogue() {
        let digest = String(repeating: "a", count: 64)
        let mirror = Catalog(
            source: .zeal,
            entries: [
                CatalogEntry(
                    source: .zeal, name: "Python_3", title: "Python 3 3.12.1", versions: ["3.12.1"],
                    archives: ["https://mirror.test/archives/b/Python_3.tgz"], size: 5,
                    sha256: String(repeating: "b", count: 64)),
                CatalogEntry(
                    source: .zeal, name: "Python_3@3.9.6", title: "Python 3 3.9.6", versions: ["3.9.6"],
                    archives: ["https://mirror.test/archives/a/Python_3@3.9.6.tgz"], size: 7, sha256: digest),
            ])
        var selection = DocSyncConfiguration.DocsetSelection(name: "Python_3")
        selection.versions = ["3.9.6", "latest", "3.8"]
        let result = CatalogSelector.select([selection], catalogs: [mirror], alternates: Self.alternates)
        #expect(result.offers.map(\.name) == ["Python_3", "Python_3@3.9.6"])
        #expect(result.offers.map(\.title) == ["Python 3 3.12.1", "Python 3 3.9.6"])
        #expect(result.offers.map(\.pinned) == [false, true])
        let kept = result.offers.last
        #expect(kept?.archives == ["https://mirror.test/archives/a/Python_3@3.9.6.tgz"])
        #expect(kept?.sha256 == digest && kept?.length == 7 && kept?.version.description == "3.9.6")
        // A version the mirror does not publish is not offered (no archive derived from the catalogue's mirrors).
        #expect(result.skipped.count == 1, "\(result.skipped)")
    }

    @Test func aPinnedOlderVersionHasNoLatestSize() {
        let offers = CatalogSelector.select(
            [.init(name: "Python_3", version: "3.9.6"), .init(name: "py3")], catalogs: [Self.zeal],
            alternates: Self.alternates
        ).offers
        #expect(offers.map(\.length) == [nil, 99])
    }
}

@Suite(.timeLimit(.minutes(5))) struct LockFileTests {
    static let sha = String(repeating: "a", count: 64)

    func load(_ text: String) throws -> LockFile {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lock-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("docsync.lock").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return try LockFile.load(path)
    }

    @Test func roundTrips() throws {
        let lock = LockFile(
            generatedAt: Date(timeIntervalSince1970: 1_800_000_000),
            docsets: [
                .init(name: "B", version: "1", archives: ["https://x/B.tgz"], sha256: Self.sha, size: 3),
                .init(name: "A", version: "2", revision: "1", archives: ["https://x/A.tgz"], sha256: Self.sha, size: 4),
            ])
        #expect(lock.docsets.map(\.name) == ["A", "B"])
        #expect(try load(String(decoding: lock.encoded(), as: UTF8.self)) == lock)
    }

    @Test(arguments: [
        ("{\"schema\": 2, \"generated_at\": \"2026-11-23T00:00:00Z\", \"docsets\": []}", "schema 2 is not supported"),
        ("not json", "not a docsync lock file"),
        (
            "{\"schema\": 1, \"generated_at\": \"2026-11-23T00:00:00Z\", \"docsets\": [{\"name\": \"A\", "
                + "\"version\": \"1\", \"archives\": [\"u\"], \"sha256\": \"abc\", \"size\": 1}]}",
            "A: needs a 64-digit sha256"
        ),
    ])
    func rejects(text: String, reason: String) {
        #expect {
            try load(text)
        } throws: { error in
            "\(error)".contains(reason)
        }
    }
}
