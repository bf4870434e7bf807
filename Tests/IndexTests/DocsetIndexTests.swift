import DocSync
import Foundation
import TestSupport
import Testing

@testable import DocSyncCLI

/// Both index formats as docsets lay them out, read in place (not installed by docsync): what a hit carries.
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct DocsetIndexTests {
    @Test func readsDashAndCoreData() throws {
        let dir = try TemporaryDirectory("index")
        defer { dir.remove() }
        let c = try IndexFixture.dash("C", in: dir.path, Samples.dash)
        let foundation = try IndexFixture.coreData("Foundation", in: dir.path, Samples.coreData)
        let index = DocsetIndex(
            docsets: [
                IndexedDocset(name: "C", version: "11", path: c),
                IndexedDocset(name: "Foundation", version: nil, path: foundation),
            ], stateDirectory: dir.appending("state"))

        let printf = try #require(index.searchBlocking(SearchQuery("PRINTF", limit: 1)).hits.first)
        #expect(printf.name == "printf" && printf.type == "Function" && printf.match == .exact)
        #expect(printf.docset == "C" && printf.version == "11")
        #expect(printf.url.absoluteString == "file://\(c)/Contents/Resources/Documents/c/printf.html#printf")

        let vector = try #require(index.searchBlocking(SearchQuery("std::vector", limit: 1)).hits.first)
        #expect(vector.type == "Class")
        #expect(
            vector.url.absoluteString
                == "file://\(c)/Contents/Resources/Documents/cpp/vector.html#//dash_ref/Class/vector")
        let member = try #require(index.searchBlocking(SearchQuery("push_back", limit: 1)).hits.first)
        #expect(member.type == "Function" && member.match == .substring)

        let length = try #require(index.searchBlocking(SearchQuery("length", limit: 1)).hits.first)
        #expect(length.type == "Method" && length.docset == "Foundation" && length.version == nil)
        #expect(
            length.url.absoluteString
                == "file://\(foundation)/Contents/Resources/Documents/documentation/Foundation/NSString.html"
                + "#//apple_ref/occ/instm/NSString/length")
        let constant = try #require(index.searchBlocking(SearchQuery("nsutf8stringencoding")).hits.first)
        #expect(constant.type == "Constant")
        #expect(constant.url.fragment == nil)
        let fuzzy = try #require(index.searchBlocking(SearchQuery("nsmarr")).hits.first)
        #expect(fuzzy.name == "NSMutableArray" && fuzzy.match == .fuzzy && fuzzy.type == "Class")
    }

    /// The derived index lives in the state folder, is reused, rebuilt when missing or corrupt, and removed with
    /// its version.
    @Test func derivedIndexLifecycle() throws {
        let dir = try TemporaryDirectory("index")
        defer { dir.remove() }
        let c = try IndexFixture.dash("C", in: dir.path, Samples.dash)
        let docset = IndexedDocset(name: "C", version: nil, path: c)
        let state = dir.appending("state")
        #expect(try DocsetIndex.prepare(docset, stateDirectory: state) == Samples.dash.count)
        let folders = try FileManager.default.contentsOfDirectory(atPath: "\(state)/index")
        #expect(folders.count == 1 && folders[0].hasPrefix("ext-"))
        let names = "\(state)/index/\(folders[0])/names.bin"
        try Data("garbage".utf8).write(to: URL(fileURLWithPath: names))
        #expect(
            DocsetIndex(docsets: [docset], stateDirectory: state).searchBlocking(SearchQuery("printf")).hits.count == 2)
        #expect(try Data(contentsOf: URL(fileURLWithPath: names)).count > 7)
        try FileManager.default.removeItem(atPath: "\(state)/index/\(folders[0])")
        #expect(
            DocsetIndex(docsets: [docset], stateDirectory: state).searchBlocking(SearchQuery("printf")).hits.count == 2)
        DocsetIndex.removeUnused(stateDirectory: state, keeping: [])
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(state)/index").isEmpty)
    }

    /// A derived index built from a staged docset under its version's name (what a sync builds beside the publish)
    /// is current once the folder is renamed into `.docsync/versions/`: `prepare` on the published docset opens it
    /// instead of building it again (the same names.bin), and a search finds its entries.
    @Test func anIndexBuiltBeforePublishingIsCurrentAfterTheRename() throws {
        let dir = try TemporaryDirectory("index")
        defer { dir.remove() }
        let staged = try IndexFixture.dash("C", in: dir.appending("staging"), Samples.dash)
        let state = dir.appending("state")
        let version = "C@mwyt2e41-20pu80"
        let built = try DocsetIndex.prebuild(
            IndexedDocset(name: "C", version: nil, path: staged), version: version, stateDirectory: state)
        #expect(built == Samples.dash.count)
        let names = "\(state)/index/\(version)/names.bin"
        let inode = try #require(FileManager.default.attributesOfItem(atPath: names)[.systemFileNumber] as? Int)
        let versions = dir.appending("root/.docsync/versions")
        try FileManager.default.createDirectory(atPath: versions, withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: staged, toPath: "\(versions)/\(version)")
        let published = IndexedDocset(name: "C", version: nil, path: "\(versions)/\(version)")
        #expect(try DocsetIndex.prepare(published, stateDirectory: state) == Samples.dash.count)
        #expect(try FileManager.default.attributesOfItem(atPath: names)[.systemFileNumber] as? Int == inode)
        #expect(
            DocsetIndex(docsets: [published], stateDirectory: state).searchBlocking(SearchQuery("printf")).hits.count
                == 2)
    }
}

/// A `docSet.dsidx` comes from the internet: each bad one is a clear error of its own; the others still answer.
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct HostileIndexTests {
    @Test func badIndexesAreErrorsOfTheirOwn() throws {
        let dir = try TemporaryDirectory("hostile")
        defer { dir.remove() }
        let good = try IndexFixture.dash("Good", in: dir.path, Samples.dash)
        let notSQLite = try IndexFixture.skeleton("NotSQLite", in: dir.path)
        try Data("this is not a database, just text that is long enough to look like a header".utf8)
            .write(to: URL(fileURLWithPath: "\(notSQLite)/Contents/Resources/docSet.dsidx"))
        let wrong = try IndexFixture.skeleton("Wrong", in: dir.path)
        _ = try IndexFixture.sqliteCount(
            "\(wrong)/Contents/Resources/docSet.dsidx", "CREATE TABLE searchIndex(a, b, c); SELECT 0;")
        let missing = try IndexFixture.skeleton("Missing", in: dir.path)
        let huge = try IndexFixture.dash(
            "Huge", in: dir.path, (0..<300).map { .init(name: "entry\($0)", type: "Function", path: "p.html") })
        let injection = "x'); DROP TABLE searchIndex; --"
        let sql = try IndexFixture.dash(
            "SQL", in: dir.path,
            [
                .init(name: injection, type: "Function'; --", path: "a.html#'\"; DELETE FROM entry"),
                .init(name: String(repeating: "long", count: 50_000), type: "Function", path: "b.html"),
                .init(name: "tab\there\u{1B}[31m", type: "Function", path: "c.html"),
            ])
        let docsets = [
            ("Good", good), ("NotSQLite", notSQLite), ("Wrong", wrong), ("Missing", missing), ("Huge", huge),
            ("SQL", sql),
        ].map { IndexedDocset(name: $0.0, version: nil, path: $0.1) }
        let index = DocsetIndex(docsets: docsets, stateDirectory: dir.appending("state"), maximumEntries: 200)
        let results = index.searchBlocking(SearchQuery("printf"))
        #expect(results.hits.map(\.name) == ["printf", "sprintf"])
        let kinds = Dictionary(uniqueKeysWithValues: results.failures.map { ($0.docset, "\($0.kind)") })
        #expect(kinds == ["NotSQLite": "not_sqlite", "Wrong": "unknown_schema", "Missing": "io", "Huge": "too_large"])
        for failure in results.failures { #expect(failure.description.hasPrefix("\(failure.docset): docSet.dsidx: ")) }

        let hit = try #require(index.searchBlocking(SearchQuery("drop table", docsets: ["SQL"])).hits.first)
        #expect(hit.name == injection && hit.type == "Function'; --")
        #expect(hit.url.absoluteString.hasSuffix("a.html#'%22;%20DELETE%20FROM%20entry"))
        let long = try #require(index.searchBlocking(SearchQuery("longlong", docsets: ["SQL"])).hits.first)
        #expect(long.name.utf8.count == 4096)
        #expect(index.searchBlocking(SearchQuery("tab\th", docsets: ["SQL"])).hits.count == 1)
        #expect(SearchCommand.escaped("tab\there\u{1B}[31m") == "tab\\there\\e[31m")
    }
}
