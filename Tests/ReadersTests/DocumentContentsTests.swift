import DocSync
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `InstalledDocset.contents(of:)` reads pages and nothing else: a table of traversal attempts against a docset
/// folder with symlinks inside and out, a FIFO, a folder and a file over the limit, with a secret beside it.
@Suite(.timeLimit(.minutes(10))) struct DocumentContentsTests {
    static let secret = "SECRET outside the docset"

    /// `<dir>/D.docset` and `<dir>/secret.txt`.
    static func docset(_ dir: TemporaryDirectory) throws -> InstalledDocset {
        let fm = FileManager.default
        let docset = dir.appending("D.docset")
        let documents = "\(docset)/Contents/Resources/Documents"
        try fm.createDirectory(atPath: "\(documents)/sub", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: "\(documents)/folder", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: "\(docset)/Contents/Resources/Documentation", withIntermediateDirectories: true)
        try Data(secret.utf8).write(to: URL(fileURLWithPath: dir.appending("secret.txt")))
        try Data("index".utf8).write(to: URL(fileURLWithPath: "\(documents)/index.html"))
        try Data("page".utf8).write(to: URL(fileURLWithPath: "\(documents)/sub/page.html"))
        try Data("odd".utf8).write(to: URL(fileURLWithPath: "\(documents)/with space & #.html"))
        try Data("apple".utf8).write(to: URL(fileURLWithPath: "\(docset)/Contents/Resources/Documentation/a.html"))
        try Data("db".utf8).write(to: URL(fileURLWithPath: "\(docset)/Contents/Resources/docSet.dsidx"))
        try Data(repeating: 7, count: 3 << 20).write(to: URL(fileURLWithPath: "\(documents)/big.bin"))
        #expect(mkfifo("\(documents)/fifo", 0o644) == 0)
        let links = [
            "link-inside": "index.html", "link-up": "../docSet.dsidx", "Documentation": "../Documentation",
            "link-out": "../../../../secret.txt", "link-abs": dir.appending("secret.txt"),
            "dir-out": "../../../..", "dangling": "nothing.html", "proc": "/proc/self/root/etc/hostname",
        ]
        for (name, target) in links {
            try fm.createSymbolicLink(atPath: "\(documents)/\(name)", withDestinationPath: target)
        }
        return InstalledDocset(name: "D", path: docset)
    }

    /// page → the bytes, or the error kind.
    static let table: [(String, String)] = [
        ("index.html", "=index"),
        ("./index.html", "=index"),
        ("sub//page.html", "=page"),
        ("with space & #.html", "=odd"),
        ("link-inside", "=index"),
        ("link-up", "=db"),  // a link to elsewhere inside the docset is followed
        ("Documentation/a.html", "=apple"),  // Apple's layout through its internal link
        ("../docSet.dsidx", "invalid_path"),
        ("sub/../index.html", "invalid_path"),
        ("../../../../secret.txt", "invalid_path"),
        ("/etc/passwd", "invalid_path"),
        ("index.html\u{0}.png", "invalid_path"),
        ("index\u{1b}.html", "invalid_path"),
        ("", "invalid_path"),
        (".", "invalid_path"),
        (String(repeating: "a/", count: 2100) + "x", "invalid_path"),
        (String(repeating: "n", count: 256), "invalid_path"),
        ("link-out", "outside_docset"),
        ("link-abs", "outside_docset"),
        ("dir-out/secret.txt", "outside_docset"),
        ("proc", "outside_docset"),
        ("missing.html", "not_found"),
        ("dangling", "not_found"),
        ("index.html/x", "not_found"),
        ("folder", "not_regular_file"),
        ("fifo", "not_regular_file"),  // opened non-blocking: never hangs waiting for a writer
        ("big.bin", "too_large"),
    ]

    @Test func everyTraversalAttemptIsRefused() async throws {
        let dir = try TemporaryDirectory("contents")
        defer { dir.remove() }
        let docset = try Self.docset(dir)
        for (page, expected) in Self.table {
            do {
                let bytes = try await docset.contents(of: page, maximumBytes: 1 << 20)
                let text = String(decoding: bytes, as: UTF8.self)
                #expect("=\(text)" == expected, "\(page.prefix(60)): read \(text.prefix(40))")
                #expect(!text.contains("SECRET"))
            } catch {
                #expect("\(error.kind)" == expected, "\(page.prefix(60)): \(error)")
                #expect(error.docset == "D" && !error.description.contains(Self.secret))
            }
        }
    }

    @Test func theLimitIsTheCallersAndTheDefaultReadsLargePages() async throws {
        let dir = try TemporaryDirectory("contents")
        defer { dir.remove() }
        let docset = try Self.docset(dir)
        #expect(try await docset.contents(of: "big.bin").count == 3 << 20)
        await #expect(throws: DocumentError.tooLarge) {
            _ = try await docset.contents(of: "index.html", maximumBytes: 4)
        }
        #expect(try await docset.contents(of: "index.html", maximumBytes: 5) == Array("index".utf8))
    }

    @Test func anInstalledPageReadsThroughALease() async throws {
        let h = try ReaderHarness()
        defer { h.remove() }
        try await h.install("A", version: "3")
        let lease = try await h.engine.lease("A")
        let page = String(decoding: try await lease.contents(of: "section1/page1.html"), as: UTF8.self)
        #expect(page.contains("3 page 1"))
        await #expect(throws: DocumentError.invalidPath) { _ = try await lease.contents(of: "../meta.json") }
    }
}
