import DocSync
import Foundation
import TestSupport
import Testing

/// Feed locations people get wrong: a URL without its scheme, a server answering with an HTML page.
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct FeedMistakeTests {
    /// `URL: message` of the first `feed-failed` event.
    static func feedFailure(_ events: [[String: Any]], _ context: String) throws -> String {
        let failed = try #require(events.first { $0["event"] as? String == "feed-failed" }, "\(context)")
        let failure = try #require(failed["failure"] as? [String: Any], "\(context)")
        return "\(failure["url"] as? String ?? ""): \(failure["message"] as? String ?? "")"
    }

    @Test func aURLWithoutASchemeSaysNoSuchFileAndHowToWriteAURL() throws {
        let h = try SyncHarness.inMemory()  // the binary reads the feed as a local path: no server is asked
        try h.writeConfig(feeds: ["http://unused"])
        try "root = \"root\"\nstaging = \"staging\"\nstate = \"state\"\n[[feed]]\nurl = \"127.0.0.1:8080/x.xml\"\n"
            .write(toFile: h.configPath, atomically: true, encoding: .utf8)
        let run = try h.run(["sync", "--json"])
        #expect(run.status == 3)
        let reason = try Self.feedFailure(SyncHarness.events(run), run.standardOutput)
        #expect(reason.contains("no such local file"), "\(reason)")
        #expect(reason.contains("http://127.0.0.1:8080/x.xml"), "\(reason)")

        let parse = try Tool.run(Tool.docsyncBinary, ["feed", "parse", "127.0.0.1:8080/x.xml"])
        #expect(parse.status == 74)
        #expect(parse.standardError.contains("no such local file (URLs need http:// or https://"), "\(parse.standardError)")
    }

    @Test func aServerAnsweringWithAnHTMLPageIsNamedAsSuch() async throws {
        let h = try SyncHarness.inMemory()
        try "<!DOCTYPE html>\n<html><head><title>Sign in</title></head><body><p>Log in<br><p>to continue</body></html>\n"
            .write(toFile: "\(h.www)/portal.atom", atomically: true, encoding: .utf8)
        try h.writeConfig(feeds: ["portal.atom"])
        let run = try await h.sync()
        #expect(run.status == 3, "\(run.lines)")
        let reason = try Self.feedFailure(run.events, run.lines)
        #expect(reason.contains("an HTML page, not a feed"), "\(reason)")
        #expect(!reason.contains("libxml2"))
    }
}
