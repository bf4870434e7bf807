import DocSync
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A password in a feed's URL or in its archive URLs reaches no file docsync writes except the feed
/// cache's bodies (the next sync needs them), and those are 0600 in a 0700 `<state>/feeds/` (README, Security).
/// The files are the subject: the sync runs in process against a `MemoryOrigin` (its `--json` lines are what the
/// binary prints; the binary's own text with credentials against nginx: `UntrustedFeedTextTests`), `lock` and
/// `status`, which ask no server, run the binary.
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct SecretFilesTests {
    @Test func passwordsStayOutOfEveryFileButThePrivateFeedCache() async throws {
        let h = try SyncHarness.inMemory()
        try h.publishArchive(DocsetFixture.make(version: "1"), as: "A-1.tgz", folder: "A")
        let base = h.url("").replacingOccurrences(of: "http://", with: "http://reader:archive-secret@")
        try h.writeAtomFeed(
            "f.atom",
            [.init(identifier: "org.a", title: "A", version: "1", archive: "\(base)A-1.tgz?token=tok-secret")])
        let feed = h.url("f.atom").replacingOccurrences(of: "http://", with: "http://reader:feed-secret@")
        try h.writeConfig(feeds: [feed])
        let sync = try await h.sync()
        #expect(sync.status == 0, "\(sync.lines)")
        #expect(sync.names("installed") == ["A"], "\(sync.lines)")
        let lock = try BoundedRun.run(h, ["lock"], deadline: 30)
        #expect(lock.status == 0, "\(lock.standardError)")
        let status = try BoundedRun.run(h, ["status", "--json"], deadline: 30)
        let secrets = ["archive-secret", "feed-secret", "tok-secret"]
        for output in [sync.lines, lock.standardOutput, lock.standardError, status.standardOutput] {
            for secret in secrets { #expect(!output.contains(secret), "printed \(secret): \(output)") }
        }

        var holders: [String] = []
        for folder in ["root", "staging", "state", "docsync.lock"] {
            let top = h.dir.appending(folder)
            var paths = [top]
            if let walker = FileManager.default.enumerator(atPath: top) {
                paths += walker.compactMap { $0 as? String }.map { "\(top)/\($0)" }
            }
            for path in paths {
                var st = stat()
                guard lstat(path, &st) == 0, st.st_mode & S_IFMT == S_IFREG,
                    let text = FileManager.default.contents(atPath: path).map({ String(decoding: $0, as: UTF8.self) }),
                    secrets.contains(where: text.contains)
                else { continue }
                holders.append(path)
                #expect(path.hasPrefix(h.state + "/feeds/"), "\(path) holds a secret")
                let mode = String(st.st_mode & 0o777, radix: 8)
                #expect(st.st_mode & 0o077 == 0, "\(path) is readable by others: \(mode)")
            }
        }
        #expect(!holders.isEmpty, "the cached feed body holds the archive URL's password")
        var feeds = stat()
        #expect(lstat(h.state + "/feeds", &feeds) == 0)
        #expect(feeds.st_mode & 0o777 == 0o700, "feeds/ is \(String(feeds.st_mode & 0o777, radix: 8))")
    }
}
