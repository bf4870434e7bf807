import DocSync
import Foundation
import GRDB
import TestSupport
import Testing

/// `DocsetEntries` streams: every entry of a large index in order, in both formats, and stopping early stops the
/// reader thread (observed in /proc: no `docsync-entries` thread left). Serialized: `stoppingEarlyStopsTheReader`
/// counts the process's `docsync-entries` threads, so no other stream (all in-process streams are tests of this
/// suite) may run beside it.
@Suite(.serialized, .timeLimit(.minutes(10))) struct EntriesStreamTests {
    static let count = 100_000

    /// A Dash docset of `count` entries written with one SQL statement (a recursive CTE), fast at any size.
    static func largeDocset(in parent: String) throws -> String {
        let folder = try IndexFixture.dash("Large", in: parent, [])
        let queue = try DatabaseQueue(path: "\(folder)/Contents/Resources/docSet.dsidx")
        try queue.write { db in
            try db.execute(
                sql: """
                    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(count))
                    INSERT INTO searchIndex(name, type, path)
                    SELECT 'symbol' || i, 'func', 'page' || (i % 100) || '.html#s' || i FROM n
                    """)
        }
        try queue.close()
        return folder
    }

    static func entriesThreads() -> Int {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.filter {
            (try? String(contentsOfFile: "/proc/self/task/\($0)/comm", encoding: .utf8))?.hasPrefix("docsync-entries")
                ?? false
        }.count
    }

    @Test func everyEntryInOrder() async throws {
        let dir = try TemporaryDirectory("entries-stream")
        defer { dir.remove() }
        let folder = try Self.largeDocset(in: dir.appending("docsets"))
        var n = 0
        for try await entry in DocsetEntries(docset: IndexedDocset(name: "Large", version: nil, path: folder)) {
            n += 1
            if n == 1 || n == Self.count {
                #expect(entry.name == "symbol\(n)")
                #expect(entry.type == "Function")
                #expect(entry.rawType == "func")
                #expect(entry.page == "page\(n % 100).html")
                #expect(entry.fragment == "s\(n)")
                #expect(entry.url.path == "\(folder)/Contents/Resources/Documents/page\(n % 100).html")
            }
        }
        #expect(n == Self.count)
        // Core Data (in WAL mode, read through a copy in the scratch folder) streams the same way.
        let apple = try IndexFixture.coreData("Apple", in: dir.appending("docsets"), Samples.coreData, wal: true)
        let scratch = dir.appending("scratch")
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        var names: [String] = []
        for try await entry in DocsetEntries(
            docset: IndexedDocset(name: "Apple", version: nil, path: apple), scratchDirectory: scratch, batchSize: 2)
        {
            names.append(entry.name)
        }
        #expect(names == Samples.coreData.map(\.name))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch).isEmpty, "the copy is removed")
    }

    @Test func stoppingEarlyStopsTheReader() async throws {
        let dir = try TemporaryDirectory("entries-stream")
        defer { dir.remove() }
        let folder = try Self.largeDocset(in: dir.appending("docsets"))
        let docset = IndexedDocset(name: "Large", version: nil, path: folder)
        do {
            var n = 0
            for try await _ in DocsetEntries(docset: docset, batchSize: 64) {
                n += 1
                if n == 10 { break }
            }
            #expect(n == 10)
        }
        let deadline = ContinuousClock.now + .seconds(30)
        while Self.entriesThreads() > 0 {
            #expect(ContinuousClock.now < deadline, "the reader thread is still running 30 s after the loop ended")
            if ContinuousClock.now >= deadline { break }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    @Test func unreadableIndexThrowsTyped() async throws {
        let dir = try TemporaryDirectory("entries-stream")
        defer { dir.remove() }
        let folder = try IndexFixture.skeleton("Broken", in: dir.appending("docsets"))
        try Data("not sqlite at all, just some text".utf8).write(
            to: URL(fileURLWithPath: "\(folder)/Contents/Resources/docSet.dsidx"))
        var iterator = DocsetEntries(docset: IndexedDocset(name: "Broken", version: nil, path: folder))
            .makeAsyncIterator()
        do {
            _ = try await iterator.next()
            Issue.record("no error")
        } catch {
            #expect(error.kind == .notSQLite)
            #expect(error.docset == "Broken")
        }
        #expect(try await iterator.next() == nil)
    }
}
