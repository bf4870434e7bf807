@testable import DocSync
import Testing

/// Which versions `docsync diff` compares (`DiffVersions`): defaults, names, IDs, side-by-side copies, errors.
@Suite(.timeLimit(.minutes(5)))
struct DiffVersionsTests {
    typealias Side = DiffVersions.Side
    typealias Record = DiffVersions.Record

    static let a = Side(version: "1.0", folder: "Doc@a1")
    static let b = Side(version: "2.0", folder: "Doc@b2")
    static let b2 = Side(version: "2.0", folder: "Doc@b3")
    static let copy = Side(version: "1.0", folder: "Doc@1.0@c4")
    static let log = [
        Record(docset: "Doc", from: nil, to: a),
        Record(docset: "Other", from: nil, to: Side(version: "9", folder: "Other@o1")),
        Record(docset: "Doc", from: a, to: b),
        Record(docset: "Doc@1.0", from: nil, to: copy),
        Record(docset: "Doc", from: b, to: b2),
    ]

    @Test(arguments: [
        // (from, to, expected from folder, expected to folder)
        (nil, nil, "Doc@b2", "Doc@b3"),
        ("1.0", nil, "Doc@a1", "Doc@b3"),
        (nil, "Doc@b2", "Doc@a1", "Doc@b2"),
        (nil, "b2", "Doc@a1", "Doc@b2"),
        (nil, "1.0", nil, "Doc@a1"),
        ("Doc@1.0@c4", "b3", "Doc@1.0@c4", "Doc@b3"),
    ] as [(String?, String?, String?, String)])
    func resolves(from: String?, to: String?, expectedFrom: String?, expectedTo: String) throws {
        let resolved = try DiffVersions.resolve(docset: "Doc", from: from, to: to, records: Self.log).get()
        #expect(resolved.from?.folder == expectedFrom)
        #expect(resolved.to.folder == expectedTo)
    }

    @Test(arguments: [
        ("Nope", nil, DocsetDiffError.Kind.unknownDocset),
        ("Doc", "3.0", .unknownVersion),
        ("Doc", "2.0", .ambiguousVersion),
        ("Doc", "Other@o1x", .unknownVersion),
    ] as [(String, String?, DocsetDiffError.Kind)])
    func refuses(docset: String, from: String?, kind: DocsetDiffError.Kind) {
        let result = DiffVersions.resolve(docset: docset, from: from, to: nil, records: Self.log)
        guard case .failure(let error) = result else {
            Issue.record("resolved \(result)")
            return
        }
        #expect(error.kind == kind, "\(error.message)")
    }

    @Test func aRemovedDocsetNeedsItsVersionsNamed() throws {
        let log = Self.log + [Record(docset: "Doc", from: Self.b2, to: nil)]
        let result = DiffVersions.resolve(docset: "Doc", from: nil, to: nil, records: log)
        guard case .failure(let error) = result else {
            Issue.record("resolved \(result)")
            return
        }
        #expect(error.kind == .notInstalled)
        let named = try DiffVersions.resolve(docset: "Doc", from: "1.0", to: "b3", records: log).get()
        #expect(named.from == Self.a && named.to == Self.b2)
    }
}
