import Testing

@testable import DocSyncTarix

struct PathRow: Sendable, CustomTestStringConvertible {
    let path: String
    let directory: Bool
    /// nil: accepted with `verdict`; else the error kind.
    let error: String?
    let verdict: TarixPathPolicy.Verdict?
    var testDescription: String { path }
}

/// Pure rules: paths, the `hash` column, tar numbers and pax records, each a table.
@Suite(.timeLimit(.minutes(5))) struct TarixPolicyTests {
    static let paths = [
        PathRow(path: "X.docset/", directory: true, error: nil, verdict: .directory),
        PathRow(path: "X.docset/Contents/a.html", directory: false, error: nil, verdict: .document),
        PathRow(path: "X.docset/Contents/", directory: true, error: nil, verdict: .directory),
        PathRow(path: "X.docset/../a.html", directory: false, error: "unsafe_path", verdict: nil),
        PathRow(path: "/X.docset/a.html", directory: false, error: "unsafe_path", verdict: nil),
        PathRow(path: "X.docset/a\u{0}b", directory: false, error: "unsafe_path", verdict: nil),
        PathRow(path: "X.docset//a", directory: false, error: "unsafe_path", verdict: nil),
        PathRow(path: "X.docset/./a", directory: false, error: "unsafe_path", verdict: nil),
        PathRow(
            path: "X.docset/" + String(repeating: "a", count: 256), directory: false, error: "unsafe_path", verdict: nil
        ),
        PathRow(
            path: "X.docset/" + Array(repeating: "d", count: 48).joined(separator: "/"), directory: false,
            error: "unsafe_path", verdict: nil),
        PathRow(path: "X.docset/Y.docset/Contents/a", directory: false, error: "unsupported_entry", verdict: nil),
        PathRow(path: "X.docset/Contents/._a.html", directory: false, error: nil, verdict: .skip),
        PathRow(path: "__MACOSX/X.docset/a", directory: false, error: nil, verdict: .skip),
        PathRow(path: "./", directory: true, error: nil, verdict: .skip),
        PathRow(path: "X.docset", directory: false, error: "unsafe_path", verdict: nil),
        PathRow(path: "Contents/a.html", directory: false, error: "unsafe_path", verdict: nil),
        PathRow(path: "X.DOCSET/a.html", directory: false, error: "unsafe_path", verdict: nil),
    ]

    @Test(arguments: paths)
    func path(_ row: PathRow) {
        var policy = TarixPathPolicy()
        let record = TarRecord(
            firstBlock: 0, blockCount: 1, path: Array(row.path.utf8), kind: row.directory ? .directory : .regular,
            size: 0, mode: 0o644)
        do {
            let verdict = try policy.evaluate(record)
            #expect(row.error == nil, "accepted as \(verdict)")
            #expect(verdict == row.verdict)
        } catch {
            #expect(error.kind == row.error, "\(error)")
        }
    }

    @Test func oneRootForEveryEntry() throws {
        var policy = TarixPathPolicy()
        func record(_ path: String) -> TarRecord {
            TarRecord(firstBlock: 0, blockCount: 1, path: Array(path.utf8), kind: .regular, size: 0, mode: 0o644)
        }
        #expect(try policy.evaluate(record("./X.docset/a")) == .document)
        #expect(policy.rootPrefix == Array("./X.docset/".utf8))
        #expect(throws: TarixError.self) { try policy.evaluate(record("X.docset/b")) }
        #expect(throws: TarixError.self) { try policy.evaluate(record("./Z.docset/b")) }
        #expect(try policy.evaluate(record("./X.docset/c/d")) == .document)
        let link = TarRecord(
            firstBlock: 0, blockCount: 1, path: Array("./X.docset/l".utf8), kind: .symlink(target: Array("a".utf8)),
            size: 0, mode: 0o777)
        #expect(throws: TarixError.self) { try policy.evaluate(link) }
    }

    @Test(
        arguments: [
            ("0 0 1", TarixLocation(block: 0, offset: 0, length: 1)),
            ("12 34567 89", TarixLocation(block: 12, offset: 34567, length: 89)),
            ("", nil), ("1 2", nil), ("1 2 3 4", nil), ("a b c", nil), ("1 2 0", nil), ("-1 2 3", nil), (" 1 2 3", nil),
            ("1 2 3 ", nil), ("1 2 9999999999999999999", nil),
        ] as [(String, TarixLocation?)])
    func location(_ hash: String, _ expected: TarixLocation?) {
        #expect(TarixLocation(hash: hash) == expected)
        if let expected { #expect(expected.description == hash) }
    }

    @Test(
        arguments: [
            ("0000644\0", Int64?(0o644)), ("     12 ", 0o12), ("", 0), ("0000000000\0", 0), ("12 3", nil), ("9", nil),
            ("-1", nil),
        ] as [(String, Int64?)])
    func octal(_ field: String, _ expected: Int64?) {
        var bytes = Array(field.utf8)
        bytes += Array(repeating: 0, count: max(0, 12 - bytes.count))
        let value = bytes.withUnsafeBytes { TarHeader.number($0, 0, 12) }
        #expect(value == expected)
    }

    @Test func base256() {
        var bytes = [UInt8](repeating: 0, count: 12)
        bytes[0] = 0x80
        bytes[11] = 0x01
        bytes[10] = 0x02
        #expect(bytes.withUnsafeBytes { TarHeader.number($0, 0, 12) } == 0x0201)
        bytes[0] = 0xFF
        #expect(bytes.withUnsafeBytes { TarHeader.number($0, 0, 12) } == nil)
    }

    @Test func pax() {
        let good = Array("29 path=X.docset/a/long/name\n12 size=123\n19 GNU.sparse.map=\n".utf8)
        let parsed = PaxHeader.parse(good, into: PaxHeader())
        #expect(parsed?.path == Array("X.docset/a/long/name".utf8))
        #expect(parsed?.size == 123)
        #expect(parsed?.sparse == true)
        #expect(PaxHeader.parse(Array("99 path=x\n".utf8), into: PaxHeader()) == nil)
        #expect(PaxHeader.parse(Array("9 pathx\n".utf8), into: PaxHeader()) == nil)
        #expect(PaxHeader.parse(Array("12 size=-5\n".utf8), into: PaxHeader()) == nil)
    }
}

extension TarixPolicyTests {
    @Test func recordOverZealsLimit() throws {
        var policy = TarixPathPolicy()
        let limit = TarixLimits().maxRecordBlocks
        func file(_ blocks: Int64) -> TarRecord {
            TarRecord(
                firstBlock: 0, blockCount: blocks, path: Array("X.docset/big.bin".utf8), kind: .regular,
                size: (blocks - 1) * 512, mode: 0o644)
        }
        #expect(try policy.evaluate(file(limit)) == .document)
        #expect(throws: TarixError.self) { try policy.evaluate(file(limit + 1)) }
    }
}
