import DocSync
import Foundation
import TestSupport
import Testing

/// Feed locations people get wrong: a URL without its scheme, a server answering with an HTML page.
@Suite(.timeLimit(.minutes(10))) struct FeedMistakeTests {
    @Test func aURLWithoutASchemeSaysNoSuchFileAndHowToWriteAURL() throws {
        let h = try SyncHarness()
        try h.writeConfig(feeds: ["http://unused"])
        try "root = \"root\"\nstaging = \"staging\"\nstate = \"state\"\n[[feed]]\nurl = \"127.0.0.1:8080/x.xml\"\n"
            .write(toFile: h.configPath, atomically: true, encoding: .utf8)
        let run = try h.run(["sync", "--json"])
        #expect(run.status == 3)
        let failed = try #require(SyncHarness.events(run).first { $0["event"] as? String == "feed-failed" })
        let failure = try #require(failed["failure"] as? [String: Any])
        let reason = "\(failure["url"] as? String ?? ""): \(failure["message"] as? String ?? "")"
        #expect(reason.contains("no such local file"), "\(reason)")
        #expect(reason.contains("http://127.0.0.1:8080/x.xml"), "\(reason)")

        let parse = try Tool.run(Tool.docsyncBinary, ["feed", "parse", "127.0.0.1:8080/x.xml"])
        #expect(parse.status == 74)
        #expect(parse.standardError.contains("no such local file (URLs need http:// or https://"), "\(parse.standardError)")
    }

    @Test func aServerAnsweringWithAnHTMLPageIsNamedAsSuch() throws {
        let h = try SyncHarness()
        try "<!DOCTYPE html>\n<html><head><title>Sign in</title></head><body><p>Log in<br><p>to continue</body></html>\n"
            .write(toFile: "\(h.www)/portal.atom", atomically: true, encoding: .utf8)
        try h.writeConfig(feeds: ["portal.atom"])
        let run = try h.run(["sync", "--json"])
        #expect(run.status == 3)
        let failed = try #require(SyncHarness.events(run).first { $0["event"] as? String == "feed-failed" })
        let failure = try #require(failed["failure"] as? [String: Any])
        let reason = "\(failure["url"] as? String ?? ""): \(failure["message"] as? String ?? "")"
        #expect(reason.contains("an HTML page, not a feed"), "\(reason)")
        #expect(!reason.contains("libxml2"))
    }
}
