import DocSync
import DocSyncInstall
import Foundation
import Testing
import TestSupport

/// The root's change log as installs, removals and adoptions write it, read through the library
/// (`SyncEngine.changes(since:)`) and the log reader: one record per change, none for a reinstall of the same bytes,
/// cursors, and the rule that an unflipped last record is never reported.
@Suite(.timeLimit(.minutes(5)))
struct ChangeLogTests {
    static func engine(_ h: InstallHarness) -> SyncEngine {
        SyncEngine(
            configuration: DocSyncConfiguration(
                root: h.root, staging: h.dir.appending("staging"), state: h.dir.appending("state")))
    }

    static func changes(_ h: InstallHarness, since cursor: String? = nil) async throws -> [DocsetChange] {
        var result: [DocsetChange] = []
        for try await change in engine(h).changes(since: cursor) { result.append(change) }
        return result
    }

    static func install(_ h: InstallHarness, version: String, documents: Int = 6, installer: Installer? = nil)
        async throws -> InstallRecord
    {
        let path = h.archive("\(version)-\(documents).tgz")
        try DocsetFixture.make(version: version, documents: documents).writeArchive(to: path)
        return try await (installer ?? h.installer).install(
            archive: path, as: InstallRequest(name: h.name, version: version))
    }

    static func folder(_ record: InstallRecord) -> String { (record.path as NSString).lastPathComponent }

    @Test func oneRecordPerChangeAndNoneForTheSameBytes() async throws {
        let h = try InstallHarness()
        defer { h.dir.remove() }
        #expect(try await Self.changes(h).isEmpty)
        let old = try await Self.install(h, version: "old")
        // Same version, same bytes: no change (the link shows a new folder of the same content).
        let again = try await Self.install(h, version: "old")
        let new = try await Self.install(h, version: "new")
        let rebuilt = try await Self.install(h, version: "new", documents: 7)  // same version, other bytes
        try await h.installer.remove(name: h.name)
        let changes = try await Self.changes(h)
        #expect(changes.map(\.kind) == [.installed, .updated, .updated, .removed])
        #expect(changes.map(\.docset) == Array(repeating: h.name, count: 4))
        #expect(changes.map(\.from) == [nil, "old", "new", "new"])
        #expect(changes.map(\.to) == ["old", "new", "new", nil])
        #expect(changes.map(\.toVersionID) == [Self.folder(old), Self.folder(new), Self.folder(rebuilt), nil])
        #expect(changes.map(\.fromVersionID) == [nil, Self.folder(again), Self.folder(new), Self.folder(rebuilt)])
        #expect(Set(changes.map(\.cursor)).count == 4)
        // Resuming after each cursor gives exactly what followed it, also from a new engine (nothing in memory).
        for (index, change) in changes.enumerated() {
            #expect(try await Self.changes(h, since: change.cursor) == Array(changes[(index + 1)...]))
        }
        #expect(try await Self.engine(h).changeCursor() == changes.last?.cursor)
    }

    @Test func adoptingAFolderIsAnInstall() async throws {
        let h = try InstallHarness()
        defer { h.dir.remove() }
        try DocsetFixture.make(version: "mine").writeTree(to: "\(h.root)/Mine.docset")
        _ = try await h.installer.adopt(folder: "Mine")
        let changes = try await Self.changes(h)
        #expect(changes.map(\.kind) == [.installed])
        #expect(changes.first?.docset == "Mine")
        #expect(changes.first?.toVersionID?.hasPrefix("Mine@adopted-") == true)
    }

    @Test func removeThrowsATypedFailureAndRecordsTheRemoval() async throws {
        let h = try InstallHarness()
        defer { h.dir.remove() }
        try await h.installOld()
        do {
            try await Self.engine(h).remove(name: "Nothing")
            Issue.record("removed a docset that is not installed")
        } catch {
            #expect(error.code == .notInstalled && error.message.contains(h.name))
        }
        try await Self.engine(h).remove(name: h.name)
        #expect(try await Self.changes(h).map(\.kind) == [.installed, .removed])
    }

    @Test func unknownCursorsSayToRescan() async throws {
        let h = try InstallHarness()
        defer { h.dir.remove() }
        try await h.installOld()
        let cursor = try #require(try await Self.engine(h).changeCursor())
        let epoch = cursor.split(separator: "-")[0]
        let otherEpoch = epoch == "0000000000000000" ? "0000000000000001" : "0000000000000000"
        for forged in ["garbage", "", "\(otherEpoch)-1", "\(epoch)-2", "\(epoch)-zzzzzzzzzzzzz", "\(epoch)--1"] {
            await #expect {
                _ = try await Self.changes(h, since: forged)
            } throws: { error in
                guard let error = error as? ChangeLogError else { return false }
                return error.kind == .unknownCursor && error.message.contains("rescan")
            }
        }
        #expect(try await Self.changes(h, since: cursor).isEmpty)
    }

    @Test func aCursorOlderThanTheLogKeepsIsExpired() async throws {
        let h = try InstallHarness()
        defer { h.dir.remove() }
        let keepNothing = Installer(root: h.root, configuration: InstallConfiguration(changesKeep: .zero))
        _ = try await Self.install(h, version: "1", installer: keepNothing)
        let first = try await Self.changes(h)
        _ = try await Self.install(h, version: "2", installer: keepNothing)  // drops record 1 first
        let after = try await Self.changes(h)
        #expect(after.map(\.to) == ["2"])
        await #expect {
            _ = try await Self.changes(h, since: Self.beforeFirst(first[0].cursor))
        } throws: { error in (error as? ChangeLogError)?.kind == .expiredCursor }
        // The cursor of the dropped record itself is still good: nothing after it was dropped.
        #expect(try await Self.changes(h, since: first[0].cursor) == after)
    }

    /// The cursor before `cursor` (the log's start for the first record).
    static func beforeFirst(_ cursor: String) -> String {
        let parts = cursor.split(separator: "-")
        return "\(parts[0])-\(String(UInt64(parts[1], radix: 36)! - 1, radix: 36))"
    }

    @Test func anUnflippedLastRecordIsNeverReportedAndRecoveryDropsIt() async throws {
        let h = try InstallHarness()
        defer { h.dir.remove() }
        let old = try await h.installOld()
        let installed = try await Self.changes(h)
        // What a writer killed between its record and its flip leaves: a record whose link still shows `from`.
        let log = "\(h.root)/.docsync/changes/log"
        let handle = try #require(FileHandle(forWritingAtPath: log))
        handle.seekToEndOfFile()
        let pending = "2\tupdated\t\(h.name)\told\t\(Self.folder(old))\tnext\t\(h.name)@never\t1\n"
        handle.write(Data(pending.utf8))
        handle.write(Data("3\tremov".utf8))  // and a torn line after it
        try handle.close()
        #expect(try await Self.changes(h) == installed)
        #expect(try await Self.engine(h).changeCursor() == installed.last?.cursor)
        await #expect(throws: ChangeLogError.self) {
            _ = try await Self.changes(h, since: Self.next(installed[0].cursor))
        }
        // The next change, under the lock, drops both and takes sequence number 2.
        _ = try await Self.install(h, version: "new")
        let changes = try await Self.changes(h)
        #expect(changes.map(\.kind) == [.installed, .updated])
        #expect(changes.last?.cursor == Self.next(installed[0].cursor))
        #expect(changes.last?.to == "new")
    }

    static func next(_ cursor: String) -> String {
        let parts = cursor.split(separator: "-")
        return "\(parts[0])-\(String(UInt64(parts[1], radix: 36)! + 1, radix: 36))"
    }

    @Test(arguments: [
        ChangeRecord(
            sequence: 7, kind: .updated, docset: "C++", from: .init(version: "1\t2%\n", folder: "C++@a"),
            to: .init(version: "", folder: "C++@b"), at: 1_700_000_000_123),
        ChangeRecord(
            sequence: 1, kind: .installed, docset: "Go", from: nil, to: .init(version: "1.22", folder: "Go@x"), at: 0),
        ChangeRecord(
            sequence: 9, kind: .removed, docset: "Go", from: .init(version: "é", folder: "Go@x"), to: nil, at: 5),
    ])
    func recordLinesRoundTrip(record: ChangeRecord) {
        let line = record.line
        #expect(line.hasSuffix("\n") && line.dropLast().split(separator: "\n").count == 1)
        #expect(ChangeRecord(line: line.dropLast()[...]) == record)
    }

    @Test(arguments: [
        "", "1\tupdated\tGo\t\tGo@x\t\t\t5", "1\tinstalled\tGo\t1\tGo@x\t2\tGo@y\t5", "x\ty",
        "1\tinstalled\tGo\t\t\t1\tGo@x\t5\t6", "1a\tinstalled\tGo\t\t\t1\tGo@x\t5", "1\tinstalledx\tGo\t\t\t1\tGo@x\t5",
        "1\tinstalled\tGo\t\t\t1\tGo@x\t", "1\tinstalled\tGo%4\t\t\t1\tGo@x\t5",
    ])
    func linesThatAreNotRecords(line: String) {
        #expect(ChangeRecord(line: line[...]) == nil)
    }

    static let epoch = "00112233445566ff"

    /// A reader of `<dir>/root`, whose log (epoch `epoch`, first record 1) holds `records` (their lines).
    static func writeLog(_ records: String, in dir: TemporaryDirectory) throws -> ChangeLogReader {
        let folder = dir.appending("root/.docsync/changes")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data("docsync-changes 1 \(epoch) 1\n\(records)".utf8).write(to: URL(fileURLWithPath: "\(folder)/log"))
        return ChangeLogReader(root: dir.appending("root"))
    }

    /// A log longer than the reader's 64 KiB chunks, written as the log's format says: every cursor reads exactly the
    /// records after it (lines cut by a chunk's end, the first record after a cursor found from the end).
    @Test func readsFromEveryKindOfCursorAcrossChunks() throws {
        let dir = try TemporaryDirectory("change-log-chunks")
        defer { dir.remove() }
        let epoch = Self.epoch
        let count: UInt64 = 3_000
        var log = ""
        var expected: [ChangeRecord] = []
        for sequence in 1...count {
            let name = "Docset\(sequence % 7)-" + String(repeating: "x", count: Int(sequence % 97))
            let record = ChangeRecord(
                sequence: sequence, kind: .updated, docset: name, from: .init(version: "\(sequence)", folder: "a"),
                to: .init(version: "v\t\(sequence)", folder: "\(name)@\(sequence)"), at: Int64(sequence))
            expected.append(record)
            log += record.line
        }
        let reader = try Self.writeLog(log, in: dir)
        for since: UInt64 in [0, 1, 2, 700, 1_499, 2_990, 2_999, 3_000] {
            let cursor = since == 0 ? nil : ChangeCursor(epoch: epoch, sequence: since)
            let batch = try reader.read(since: cursor)
            #expect(batch.records == Array(expected.dropFirst(Int(since))), "since \(since)")
            #expect(batch.cursor == ChangeCursor(epoch: epoch, sequence: count))
        }
    }

    /// The reader shares the text a run of lines repeats (a docset's name; a `from` side that is the docset's last
    /// `to`): what it reads equals each line parsed alone, for shared, escaped, removed and reinstalled docsets and a
    /// `from` that is not the last `to`.
    @Test func sharedTextReadsAsEachLineAlone() throws {
        let dir = try TemporaryDirectory("change-log-shared")
        defer { dir.remove() }
        var lines: [String] = []
        var last: [String: ChangeRecord.Side] = [:]
        let names = ["Go", "C%25", "A_Long_Docset_Name_For_Storage", "é\tab"]
        for sequence: UInt64 in 1...400 {
            let name = names[Int(sequence) % names.count]
            let to = ChangeRecord.Side(
                version: sequence % 5 == 0 ? "" : "1.\(sequence)%", folder: "\(name)@id\(sequence)-\(sequence % 3)")
            let from = sequence % 11 == 0 ? ChangeRecord.Side(version: "x", folder: "\(name)@other") : last[name]
            let removed = sequence % 13 == 0 && from != nil
            let record = ChangeRecord(
                sequence: sequence, kind: removed ? .removed : (from == nil ? .installed : .updated), docset: name,
                from: from, to: removed ? nil : to, at: Int64(sequence))
            last[name] = removed ? nil : to
            lines.append(record.line)
        }
        let read = try Self.writeLog(lines.joined(), in: dir).read(since: nil).records
        #expect(read == lines.map { ChangeRecord(line: $0.dropLast()[...])! })
        #expect(read.count == 400)
    }

    /// A cursor's text is `EPOCH-SEQUENCE` in base 36, and reads back.
    @Test(arguments: [0, 1, 35, 36, 1_295, 1_296, 99_999, 1 << 40, UInt64.max])
    func cursorText(sequence: UInt64) {
        let text = ChangeCursor.text(epoch: Self.epoch, sequence: sequence)
        #expect(text == Self.epoch + "-" + String(sequence, radix: 36))
        #expect(ChangeCursor(text: text) == ChangeCursor(epoch: Self.epoch, sequence: sequence))
    }
}
