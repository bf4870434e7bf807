import DocSync
import DocSyncInstall
import Foundation
import Testing
import TestSupport

/// `docsync diff` as a backend uses it: exact page and entry differences in both layouts, after the old version's
/// files were pruned, between two layouts of the same bytes, for a user who may only read the root, and the errors
/// for a bad name or version.
@Suite(.timeLimit(.minutes(10)), .blockingWaits)
struct DiffCommandTests {
    /// Version "a" and "b" of `Fixture`: b modifies c/printf.html, removes old.html and adds new.html; its index
    /// drops `old` and adds `fresh` (with a fragment).
    static let versions: [String: (pages: [String: String], rows: [(String, String, String)])] = [
        "a": (
            ["index.html": "home", "c/printf.html": "printf 1", "c/puts.html": "puts", "old.html": "old"],
            [("printf", "func", "c/printf.html#printf"), ("puts", "func", "c/puts.html"), ("old", "cl", "old.html")]
        ),
        "b": (
            ["index.html": "home", "c/printf.html": "printf 2", "c/puts.html": "puts", "new.html": "new"],
            [
                ("printf", "func", "c/printf.html#printf"), ("puts", "func", "c/puts.html"),
                ("fresh", "func", "new.html#fresh"),
            ]
        ),
    ]

    static let expectedJSON = [
        #"{"page":"c/printf.html","change":"modified"}"#,
        #"{"page":"new.html","change":"added"}"#,
        #"{"page":"old.html","change":"removed"}"#,
        #"{"entry":{"name":"fresh","type":"Function","raw_type":"func","page":"new.html","fragment":"fresh"},"change":"added"}"#,
        #"{"entry":{"name":"old","type":"Class","raw_type":"cl","page":"old.html","fragment":null},"change":"removed"}"#,
    ]

    struct Root {
        let dir: TemporaryDirectory
        var root: String { dir.appending("root") }

        init() throws {
            dir = try TemporaryDirectory("diff")
            for (version, content) in DiffCommandTests.versions {
                try DiffCommandTests.fixture(version: version, pages: content.pages, rows: content.rows)
                    .writeArchive(to: dir.appending("\(version).tgz"))
            }
        }

        @discardableResult
        func install(_ version: String, layout: String = "extracted", archive: String? = nil) throws -> String {
            let result = try docsync(
                ["install", archive ?? dir.appending("\(version).tgz"), "--root", root, "--name", "Fixture",
                 "--version", version, "--grace-seconds", "0", "--layout", layout, "--no-full-text"])
            #expect(result.status == 0, "\(result.standardError)")
            return try FileManager.default.destinationOfSymbolicLink(atPath: "\(root)/Fixture.docset")
                .split(separator: "/").last.map(String.init) ?? ""
        }

        func docsync(_ arguments: [String]) throws -> Tool.Result { try Tool.run(Tool.docsyncBinary, arguments) }

        func diff(_ arguments: [String] = []) throws -> Tool.Result {
            try docsync(["diff", "Fixture", "--root", root] + arguments)
        }
    }

    static func fixture(version: String, pages: [String: String], rows: [(String, String, String)]) throws
        -> DocsetFixture
    {
        var fixture = try DocsetFixture.make(version: version, documents: 0, indexRows: 0)
        for (path, text) in pages { fixture.files["Contents/Resources/Documents/\(path)"] = (Array(text.utf8), 0o644) }
        let dir = try TemporaryDirectory("dsidx")
        defer { dir.remove() }
        var sql = "CREATE TABLE searchIndex(id INTEGER PRIMARY KEY, name TEXT, type TEXT, path TEXT);"
        sql += "CREATE INDEX __zi_name0001 ON searchIndex (name COLLATE NOCASE);"
        for (name, type, path) in rows {
            sql += "INSERT INTO searchIndex(name, type, path) VALUES('\(name)', '\(type)', '\(path)');"
        }
        let result = try Tool.run("/usr/bin/sqlite3", [dir.appending("docSet.dsidx"), sql])
        #expect(result.status == 0, "\(result.standardError)")
        fixture.files["Contents/Resources/docSet.dsidx"] = (
            Array(try Data(contentsOf: URL(fileURLWithPath: dir.appending("docSet.dsidx")))), 0o644
        )
        return fixture
    }

    @Test(arguments: ["extracted", "tarix"])
    func pagesAndEntriesDifferExactlyAfterTheOldFilesArePruned(layout: String) throws {
        let r = try Root()
        defer { r.dir.remove() }
        let a = try r.install("a", layout: layout)
        let b = try r.install("b", layout: layout)
        // Grace 0: the install pruned version a's files (the diff reads what the install recorded).
        try Poll.until("version a pruned", timeout: 20) {
            !FileManager.default.fileExists(atPath: "\(r.root)/.docsync/versions/\(a)")
        }
        let result = try r.diff(["--json"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.split(separator: "\n").map(String.init) == Self.expectedJSON)
        // The same, named explicitly: by publisher version, by version folder, by its ID.
        for arguments in [["--from", "a", "--to", "b"], ["--from", a, "--to", b], ["--to", String(b.dropFirst(8))]] {
            let named = try r.diff(arguments + ["--json"])
            #expect(named.standardOutput.split(separator: "\n").map(String.init) == Self.expectedJSON, "\(arguments)")
        }
        // Backwards: everything swaps.
        let back = try r.diff(["--from", "b", "--to", "a", "--json"])
        #expect(back.standardOutput.contains(#"{"page":"new.html","change":"removed"}"#), "\(back.standardOutput)")
        let text = try r.diff()
        #expect(text.status == 0)
        #expect(text.standardOutput.contains("Fixture: a (\(a)) -> b (\(b))\n"), "\(text.standardOutput)")
        let lines = "M\tc/printf.html\nA\tnew.html\nD\told.html\n+\tfresh\tFunction\tnew.html#fresh\n"
        #expect(text.standardOutput.contains(lines), "\(text.standardOutput)")
        let count = "3 pages differ (1 added, 1 removed, 1 modified); 1 entries added, 1 removed\n"
        #expect(text.standardOutput.hasSuffix(count), "\(text.standardOutput)")
    }

    @Test func theSameBytesInTwoLayoutsDifferInNothing() throws {
        let r = try Root()
        defer { r.dir.remove() }
        let extracted = try r.install("a")
        let tarix = try r.install("a", layout: "tarix")
        #expect(extracted != tarix)
        for arguments in [[], ["--from", extracted, "--to", tarix]] {
            let result = try r.diff(arguments + ["--json"])
            #expect(result.status == 0 && result.standardOutput.isEmpty, "\(result)")
        }
        // A first install: everything is added.
        let first = try r.diff(["--to", extracted, "--json"])
        #expect(first.standardOutput.split(separator: "\n").count == 4 + 3, "\(first.standardOutput)")
        #expect(!first.standardOutput.contains(#""removed""#))
    }

    @Test func badNamesAndVersionsExitWithAMessage() throws {
        let r = try Root()
        defer { r.dir.remove() }
        try r.install("a")
        let b = try r.install("b")
        try r.install("b", archive: r.dir.appending("a.tgz"))  // version "b" again, with other bytes
        let unknown = try r.docsync(["diff", "Nothing", "--root", r.root])
        #expect(unknown.status == 64 && unknown.standardError.contains("names no docset Nothing"), "\(unknown)")
        let version = try r.diff(["--from", "zzz"])
        #expect(version.status == 64 && version.standardError.contains("does not name version zzz"), "\(version)")
        let ambiguous = try r.diff(["--from", "b"])
        #expect(ambiguous.status == 64 && ambiguous.standardError.contains(b), "\(ambiguous)")
        // A version without a record (installed before docsync kept them): 65, saying so.
        try FileManager.default.removeItem(atPath: "\(r.root)/.docsync/changes/content/\(b)")
        let missing = try r.diff(["--to", b])
        #expect(missing.status == 65 && missing.standardError.contains("no record of its content"), "\(missing)")
        #expect(try r.docsync(["remove", "--root", r.root, "Fixture"]).status == 0)
        let removed = try r.diff()
        #expect(removed.status == 64 && removed.standardError.contains("not installed"), "\(removed)")
    }

    @Test func aUserWhoMayOnlyReadTheRootReadsADiff() throws {
        let r = try Root()
        defer { r.dir.remove() }
        try r.install("a")
        try r.install("b", layout: "tarix")
        let binary = r.dir.appending("docsync")
        // Copied by `cp`: a copy written in this process could be inherited, open for writing, by a child another
        // test spawns meanwhile, and exec would fail with ETXTBSY (126).
        #expect(try Tool.run("/bin/cp", [Tool.docsyncBinary, binary]).status == 0)
        let environment = ["HOME": r.dir.path, "PATH": "/usr/bin:/bin", "XDG_CONFIG_DIRS": r.dir.appending("none")]
        let result = try Tool.run(
            "/usr/bin/setpriv",
            ["--reuid=65534", "--regid=65534", "--clear-groups", "--", binary, "diff", "Fixture", "--root", r.root,
             "--json"],
            environment: environment)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.split(separator: "\n").map(String.init) == Self.expectedJSON)
    }
}
