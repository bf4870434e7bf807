import DocSync
import Foundation
import TestSupport
import Testing

/// Apple's XAR docsets ship their entries in `docSet.dsidx-wal`. Read in place (a docset Zeal or another tool
/// installed, not prepared by docsync), every entry must be found without writing anything beside the index.
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct WALTests {
    @Test func walIndexReadCompletelyWithoutWriting() throws {
        let dir = try TemporaryDirectory("wal")
        defer { dir.remove() }
        let folder = try IndexFixture.coreData("Apple", in: dir.path, Samples.coreData, wal: true)
        let dsidx = "\(folder)/Contents/Resources/docSet.dsidx"
        #expect(FileManager.default.fileExists(atPath: dsidx + "-wal"))
        #expect(!FileManager.default.fileExists(atPath: dsidx + "-shm"))
        // The trap: an immutable open ignores the -wal and sees no tokens at all.
        #expect(try IndexFixture.sqliteCount("file:\(dsidx)?immutable=1", "SELECT count(*) FROM ztoken") == 0)
        let before = try IndexFixture.hashes(folder)

        let index = DocsetIndex(
            docsets: [IndexedDocset(name: "Apple", version: nil, path: folder)], stateDirectory: dir.appending("state"))
        for entry in Samples.coreData {
            let hit = index.searchBlocking(SearchQuery(entry.name, limit: 1)).hits.first
            #expect(hit?.name == entry.name && hit?.match == .exact)
        }
        #expect(try IndexFixture.hashes(folder) == before)
        // No scratch copy is left in the state folder.
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.appending("state/index"))
        #expect(left.count == 1 && !left[0].hasPrefix("."))
    }

    /// A docset Zeal opened read-write afterwards (it checkpointed the WAL away and added its index and view) keeps
    /// working: the derived index sees the change and is rebuilt.
    @Test func docsetZealOpenedReadWriteKeepsWorking() throws {
        let dir = try TemporaryDirectory("wal")
        defer { dir.remove() }
        let folder = try IndexFixture.coreData("Apple", in: dir.path, Samples.coreData, wal: true)
        let docset = IndexedDocset(name: "Apple", version: nil, path: folder)
        let state = dir.appending("state")
        #expect(
            DocsetIndex(docsets: [docset], stateDirectory: state).searchBlocking(SearchQuery("NSString")).hits.count == 2)
        let dsidx = "\(folder)/Contents/Resources/docSet.dsidx"
        let zeal = [ZealSQL.coreDataIndex, ZealSQL.view, "SELECT count(*) FROM searchIndex;"].joined(separator: ";")
        #expect(try IndexFixture.sqliteCount(dsidx, zeal) == Samples.coreData.count)
        #expect(!FileManager.default.fileExists(atPath: dsidx + "-wal"))
        let again = DocsetIndex(docsets: [docset], stateDirectory: state).searchBlocking(SearchQuery("NSString"))
        #expect(again.failures.isEmpty)
        #expect(again.hits.map(\.name) == ["NSString", "NSUTF8StringEncoding"])
    }
}

/// Zeal's statements (zeal src/libs/registry/docset.cpp), as Zeal runs them on every load and search.
enum ZealSQL {
    static let indexList = "PRAGMA INDEX_LIST('%@')"
    static let dashIndex = "CREATE INDEX IF NOT EXISTS __zi_name0001 ON searchIndex (name COLLATE NOCASE)"
    static let coreDataIndex = "CREATE INDEX IF NOT EXISTS __zi_name0001 ON ztoken (ztokenname COLLATE NOCASE)"
    static let view =
        "CREATE VIEW IF NOT EXISTS searchIndex AS  SELECT    ztokenname AS name,    ztypename AS type,"
        + "    zpath AS path,    zanchor AS fragment  FROM ztoken  INNER JOIN ztokenmetainformation"
        + "    ON ztoken.zmetainformation = ztokenmetainformation.z_pk  INNER JOIN zfilepath"
        + "    ON ztokenmetainformation.zfile = zfilepath.z_pk  INNER JOIN ztokentype"
        + "    ON ztoken.ztokentype = ztokentype.z_pk"
    /// Zeal's non-fuzzy search (Dash: '' for the fragment; Core Data: the view's fragment column).
    static func search(_ query: String, coreData: Bool) -> String {
        "SELECT name, type, path, \(coreData ? "fragment" : "''"), -length(name) as score  FROM searchIndex"
            + "  WHERE (name LIKE '%\(query)%' ESCAPE '\\')"
    }
}
