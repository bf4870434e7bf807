import DocSync
import DocSyncServe
import Foundation
import TestSupport
import Testing

/// Every way out of a docset is a 404 that reveals nothing: `..` plain and percent-encoded (once and twice), NUL,
/// control characters, absolute paths, a symlink inside the docset pointing outside, overlong paths.
@Suite(.timeLimit(.minutes(10))) struct TraversalTests {
    static let secret = "SECRET beside the docsets"

    @Test func pathsLeavingADocsetAre404() async throws {
        let h = try ServeHarness()
        defer { h.remove() }
        let v1 = try await h.install("A", version: "1")
        let version = ServeHarness.versionName(v1)
        // A docset installed by something else, with links inside pointing out, and a secret beside it.
        let fm = FileManager.default
        let documents = "\(h.root)/Evil.docset/Contents/Resources/Documents"
        try fm.createDirectory(atPath: "\(documents)/sub", withIntermediateDirectories: true)
        try Data("evil index".utf8).write(to: URL(fileURLWithPath: "\(documents)/index.html"))
        try Data(Self.secret.utf8).write(to: URL(fileURLWithPath: "\(h.root)/secret.txt"))
        try Data(Self.secret.utf8).write(to: URL(fileURLWithPath: h.dir.appending("secret.txt")))
        try fm.createSymbolicLink(atPath: "\(documents)/link-out", withDestinationPath: "../../../../secret.txt")
        try fm.createSymbolicLink(atPath: "\(documents)/link-abs", withDestinationPath: h.dir.appending("secret.txt"))
        try fm.createSymbolicLink(atPath: "\(documents)/sub/up", withDestinationPath: "../../../../..")
        try fm.createSymbolicLink(atPath: "\(documents)/inside", withDestinationPath: "index.html")
        try await h.start()

        #expect(try await h.http.get("/d/Evil/index.html").text == "evil index")
        #expect(try await h.http.get("/d/Evil/inside").text == "evil index", "a link inside the docset is followed")
        #expect(try await h.http.get("/d/Evil/").text == "evil index", "a folder URL serves its index.html")

        let attempts = [
            "/d/Evil/../secret.txt", "/d/Evil/../../secret.txt", "/d/Evil/%2e%2e/secret.txt",
            "/d/Evil/%2E%2E/%2E%2E/secret.txt", "/d/Evil/%2e%2e%2fsecret.txt", "/d/Evil/..%2f..%2fsecret.txt",
            "/d/Evil/sub/..%2f..%2f..%2f..%2fsecret.txt", "/d/Evil/%252e%252e/secret.txt", "/d/..%2fsecret.txt",
            "/d/%2e%2e/secret.txt", "/d/../secret.txt", "/d/Evil/%2fetc%2fpasswd", "/d/Evil//etc/passwd",
            "/d/Evil/link-out", "/d/Evil/link-abs", "/d/Evil/sub/up/secret.txt", "/d/Evil/sub/up/root/secret.txt",
            "/d/Evil/index.html%00.png", "/d/Evil/%00", "/d/Evil/index%1b.html", "/d/Evil/%ff%fe.html",
            "/d/Evil/%zz.html", "/d/Evil/%", "/d/Evil/" + String(repeating: "a/", count: 2100) + "x",
            "/d/Evil/" + String(repeating: "n", count: 300), "/d/\(version)/../../secret.txt",
            "/d/\(version)/%2e%2e/%2e%2e/%2e%2e/secret.txt", "/d/A@..%2f..%2fsecret.txt/x", "/d/A@../x",
            "/d/.docsync/x", "/d/A%2f..%2f..%2fsecret.txt/x", "/d/Evil%00/index.html", "/d/Evil\\..\\secret.txt",
            "/d/Evil/.%2e/secret.txt", "/d/Evil/%2e./secret.txt",
        ]
        for attempt in attempts {
            let reply = try await h.http.get(attempt)
            #expect(
                reply.status == 404 || reply.status == 400, "\(attempt.prefix(80)): \(reply.status)")
            #expect(!reply.text.contains("SECRET"), "\(attempt.prefix(80)) revealed the secret")
        }
        // A raw NUL or control character in the request line never reaches a file.
        for raw in ["/d/Evil/index.html\u{0}.png", "/d/Evil/\u{1b}x"] {
            let reply = try? await h.http.get(raw)
            #expect(reply.map { $0.status == 400 || $0.status == 404 } ?? true, "\(raw.debugDescription)")
        }
        try await h.stop()
    }
}
