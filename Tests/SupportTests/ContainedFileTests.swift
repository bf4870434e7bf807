import DocSyncSupport
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `ContainedFile`: the pure path policy as a table, and both ways of opening (the kernel's `RESOLVE_BENEATH`, and
/// the `O_NOFOLLOW`-per-component fallback for kernels without `openat2`, which refuses every symlink).
@Suite(.timeLimit(.minutes(10))) struct ContainedFileTests {
    @Test(arguments: [
        ("a.html", ["a.html"]), ("./a/./b.html", ["a", "b.html"]), ("a//b", ["a", "b"]), ("a/", ["a"]),
        ("é/日本.html", ["é", "日本.html"]), ("#frag?x", ["#frag?x"]), ("..a/b..", ["..a", "b.."]),
    ] as [(String, [String])])
    func accepted(path: String, parts: [String]) throws {
        #expect(try ContainedFile.components(path).get() == parts)
    }

    @Test(arguments: [
        "", ".", "./", "/", "/etc/passwd", "..", "../x", "a/../b", "a/..", "a\u{0}b", "a\nb", "a\u{7f}",
        String(repeating: "x", count: 256), String(repeating: "a/", count: 2049),
    ])
    func refused(path: String) {
        guard case .failure(.invalidPath) = ContainedFile.components(path) else {
            Issue.record("\(path.prefix(40).debugDescription) was accepted")
            return
        }
    }

    /// `isCanonical` is true exactly when `components` accepts the path and joins it back unchanged.
    @Test func canonicalPathsAreThoseComponentsKeepAsTheyAre() {
        let paths = [
            "a.html", "a/b/c.html", "é/日本.html", "#frag?x", "..a/b..", "...", "a/.../b", ".a/b", "a.",
            "./a", "a/./b", "a//b", "a/", "/a", "", ".", "..", "a/..", "../a", "a/../b", "a\u{0}b", "a\nb", "a\u{7f}",
            String(repeating: "x", count: 255), String(repeating: "x", count: 256),
            "a/" + String(repeating: "x", count: 256),
            String(repeating: "a/", count: 2047) + "a", String(repeating: "a/", count: 2048) + "a",
        ]
        for path in paths {
            let kept = (try? ContainedFile.components(path).get()).map { $0.joined(separator: "/") == path } ?? false
            #expect(ContainedFile.isCanonical(path) == kept, "\(path.prefix(40).debugDescription)")
        }
    }

    @Test(arguments: [true, false]) func opening(beneath: Bool) throws {
        let dir = try TemporaryDirectory("contained")
        defer { dir.remove() }
        let base = dir.appending("base")
        try FileManager.default.createDirectory(atPath: "\(base)/sub", withIntermediateDirectories: true)
        try Data("in".utf8).write(to: URL(fileURLWithPath: "\(base)/sub/f"))
        try Data("out".utf8).write(to: URL(fileURLWithPath: dir.appending("secret")))
        try FileManager.default.createSymbolicLink(atPath: "\(base)/inside", withDestinationPath: "sub/f")
        try FileManager.default.createSymbolicLink(atPath: "\(base)/outside", withDestinationPath: "../secret")
        try FileManager.default.createSymbolicLink(atPath: "\(base)/subdir", withDestinationPath: "sub")
        #expect(mkfifo("\(base)/fifo", 0o644) == 0)
        let fd = open(base, O_RDONLY | O_DIRECTORY)
        defer { close(fd) }
        func read(_ path: String) -> Result<String, ContainedFile.Failure> {
            Result { () throws(ContainedFile.Failure) in
                let bytes = try ContainedFile.read(path, below: fd, limit: 1 << 20, beneath: beneath)
                return String(decoding: bytes, as: UTF8.self)
            }
        }
        #expect(try read("sub/f").get() == "in")
        #expect(read("outside") == .failure(.outside))
        #expect(read("fifo") == .failure(.notRegular))
        #expect(read("sub") == .failure(.notRegular))
        #expect(read("missing") == .failure(.notFound))
        #expect(read("sub/f/x") == .failure(.notFound))
        #expect((try? ContainedFile.read("sub/f", below: fd, limit: 1, beneath: beneath)) == nil)
        // Links inside the base: followed by the kernel's resolution; the fallback follows none.
        #expect(read("inside") == (beneath ? .success("in") : .failure(.outside)))
        #expect(read("subdir/f") == (beneath ? .success("in") : .failure(.outside)))
    }
}
