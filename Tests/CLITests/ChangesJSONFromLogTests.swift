import DocSync
import DocSyncInstall
import Foundation
import Testing
import TestSupport

/// `docsync changes --json`'s lines made straight from the log's bytes (`SyncEngine.writeChangesJSON`) against the
/// same lines made from the library's `DocsetChange` values (`changes(since:)`, as `--follow` writes them), byte for
/// byte, over a seeded random log: hostile docset names and versions (control characters, `%`, quotes, backslashes,
/// non-ASCII text, DEL), fields a hand-edited log may hold (invalid UTF-8, lowercase and multi-byte `%` escapes),
/// times from 1970 to the 18 digits a record allows; read whole, from cursors, and stopped early.
@Suite(.timeLimit(.minutes(5)))
struct ChangesJSONFromLogTests {
    static let epoch = "00c0ffee12345678"

    /// Random text of up to `length` pieces, each ASCII, a hostile character or non-ASCII text.
    static func text(_ random: inout TestRandom, length: Int) -> String {
        let pieces = [
            "a", "Z", "9", ".", "-", "_", "@", " ", "%", "\"", "\\", "\u{1}", "\u{1F}", "\t", "\n", "\r", "\u{7F}",
            "é", "日本", "\u{2028}", "🙂", "<", "%41", "C++", "/",
        ]
        let count = Int.random(in: 1...length, using: &random)
        return (0..<count).map { _ in pieces.randomElement(using: &random)! }.joined()
    }

    /// A field as a hand-edited log may hold it: raw bytes (invalid UTF-8 included) and escapes docsync would not
    /// write (lowercase hex, a multi-byte character escaped), none of them a tab, a newline or a bad escape.
    static func rawField(_ random: inout TestRandom) -> [UInt8] {
        let pieces: [[UInt8]] = [
            Array("ab".utf8), [0xFF], [0xC3], [0xC3, 0xA9], [0xE2, 0x80], Array("%ff".utf8), Array("%c3%a9".utf8),
            Array("%0a".utf8), Array("%22".utf8), Array("%5C".utf8), [0x22], [0x5C], [0x01], [0x7F], Array("x".utf8),
        ]
        let count = Int.random(in: 1...6, using: &random)
        return (0..<count).flatMap { _ in pieces.randomElement(using: &random)! }
    }

    /// A log of `count` records over a few docsets, every third line with raw fields; its last record an update
    /// (settled: no link shows its `from`).
    static func log(_ random: inout TestRandom, count: Int) -> [UInt8] {
        var bytes = Array("docsync-changes 1 \(epoch) 1\n".utf8)
        let names = (0..<6).map { _ in text(&random, length: 8) }
        var installed: [Int: ChangeRecord.Side] = [:]
        for sequence in 1...count {
            let slot = Int.random(in: 0..<names.count, using: &random)
            let at: Int64 =
                Bool.random(using: &random)
                ? Int64.random(in: 0...4_102_444_800_000, using: &random)
                : Int64.random(in: 0...999_999_999_999_999_999, using: &random)
            if sequence % 3 == 0 {
                // name, from version + folder, to version + folder: raw bytes where docsync writes text.
                let fields: [[UInt8]] = [
                    Array("\(sequence)\tupdated".utf8), rawField(&random), rawField(&random), rawField(&random),
                    rawField(&random), rawField(&random), Array("\(at)".utf8),
                ]
                bytes += Array(fields.joined(separator: [9])) + [10]
                continue
            }
            let old = installed[slot]
            var new: ChangeRecord.Side?
            if old == nil || Bool.random(using: &random) {
                new = ChangeRecord.Side(version: text(&random, length: 5), folder: "F@" + text(&random, length: 6))
            }
            let kind: ChangeRecord.Kind = old == nil ? .installed : new == nil ? .removed : .updated
            let record = ChangeRecord(
                sequence: UInt64(sequence), kind: kind, docset: names[slot], from: old, to: new, at: at)
            installed[slot] = new
            bytes += Array(record.line.utf8)
        }
        return bytes
    }

    static func viaChanges(_ engine: SyncEngine, since cursor: String?) async throws -> [UInt8] {
        var out: [UInt8] = []
        for try await change in engine.changes(since: cursor) { ChangeJSONLines.append(change, to: &out) }
        return out
    }

    static func viaBytes(_ engine: SyncEngine, since cursor: String?, stopAfter chunks: Int = .max) throws -> [UInt8] {
        var out: [UInt8] = []
        var written = 0
        try engine.writeChangesJSON(since: cursor) { chunk in
            out += chunk
            written += 1
            return written < chunks
        }
        return out
    }

    @Test func linesFromTheLogsBytesAreTheLibrarysByteForByte() async throws {
        var random = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        let seed = "seed \(random.seed) (DOCSYNC_TEST_SEED=\(random.seed) replays it)"
        let dir = try TemporaryDirectory("changes-json")
        defer { dir.remove() }
        let root = dir.appending("root")
        try FileManager.default.createDirectory(atPath: "\(root)/.docsync/changes", withIntermediateDirectories: true)
        let count = 3_000
        try Data(Self.log(&random, count: count)).write(to: URL(fileURLWithPath: "\(root)/.docsync/changes/log"))
        let engine = SyncEngine(
            configuration: DocSyncConfiguration(
                root: root, staging: dir.appending("staging"), state: dir.appending("state")))

        let whole = try await Self.viaChanges(engine, since: nil)
        #expect(whole.filter { $0 == 10 }.count == count, "\(seed)")
        let fromBytes = try Self.viaBytes(engine, since: nil)
        let same = fromBytes == whole  // (not in #expect: it would print megabytes of bytes)
        #expect(same, "\(seed): first difference at byte \(fromBytes.firstDifference(whole))")
        // Every line parses as JSON (the escapes are valid), and hostile text came through.
        for line in fromBytes.split(separator: 10).prefix(200) {
            #expect(try JSONSerialization.jsonObject(with: Data(line)) is [String: Any], "\(seed)")
        }
        let escaped = fromBytes.contains(0x5C) && !fromBytes.contains(0x01) && !fromBytes.contains(0x09)
        #expect(escaped, "\(seed)")

        for sequence in [0, 1, 2, count / 2, count - 10, count - 1, count] {
            let cursor = ChangeCursor.text(epoch: Self.epoch, sequence: UInt64(sequence))
            let expected = try await Self.viaChanges(engine, since: cursor)
            let got = try Self.viaBytes(engine, since: cursor)
            let same = got == expected
            #expect(same, "\(seed), since \(sequence): first difference at byte \(got.firstDifference(expected))")
        }
        // Stopped after the first chunk: a prefix of whole lines.
        let first = try Self.viaBytes(engine, since: nil, stopAfter: 1)
        let prefix = first.count >= 1 << 16 && first.last == 10 && whole.starts(with: first)
        #expect(prefix, "\(seed)")
    }

    @Test func aForgedCursorAndACorruptLineAreTheLibrarysErrors() async throws {
        let dir = try TemporaryDirectory("changes-json")
        defer { dir.remove() }
        let root = dir.appending("root")
        try FileManager.default.createDirectory(atPath: "\(root)/.docsync/changes", withIntermediateDirectories: true)
        let good = ChangeRecord(
            sequence: 1, kind: .installed, docset: "Go", from: nil, to: .init(version: "1", folder: "Go@a"), at: 5)
        let log = "docsync-changes 1 \(Self.epoch) 1\n" + good.line + "2\tupdated\tGo\t1\tGo@a\t2\tGo@%zz\t6\n"
            + "3\tremoved\tGo\t2\tGo@b\t\t\t7\n"
        try Data(log.utf8).write(to: URL(fileURLWithPath: "\(root)/.docsync/changes/log"))
        let engine = SyncEngine(
            configuration: DocSyncConfiguration(
                root: root, staging: dir.appending("staging"), state: dir.appending("state")))
        var written: [UInt8] = []
        let corrupt = #expect(throws: ChangeLogError.self) {
            try engine.writeChangesJSON(since: nil) { chunk in
                written += chunk
                return true
            }
        }
        #expect(corrupt?.kind == .unreadable)
        // What came before the bad line is written first, as the library hands it out before throwing.
        var expected: [UInt8] = []
        ChangeJSONLines.append(SyncEngine.change(good, epoch: Self.epoch), to: &expected)
        #expect(written == expected)
        let forged = #expect(throws: ChangeLogError.self) {
            try engine.writeChangesJSON(since: "\(Self.epoch)-zz") { _ in true }
        }
        #expect(forged?.kind == .unknownCursor)
    }
}

extension Array where Element == UInt8 {
    /// The index of the first byte that differs from `other`'s (for failure messages).
    fileprivate func firstDifference(_ other: [UInt8]) -> Int {
        (0..<Swift.min(count, other.count)).first { self[$0] != other[$0] } ?? Swift.min(count, other.count)
    }
}
