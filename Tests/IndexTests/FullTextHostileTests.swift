import DocSync
import DocSyncIndex
import Foundation
import TestSupport
import Testing

/// Hostile pages in an installed docset, through `docsync install --full-text` (a real process, its peak memory
/// measured by `/usr/bin/time`): a page over the 32 MiB limit (40 MB of text) is skipped with a warning naming it;
/// a 30 MiB page of text, deep nesting, invalid UTF-8 and an entity bomb are indexed in bounded memory; nothing
/// crashes and every other page is found.
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct FullTextHostileTests {
    @Test func hostilePagesAreBoundedOrSkippedWithAWarningNamingThem() throws {
        let dir = try TemporaryDirectory("fulltext-hostile")
        defer { dir.remove() }
        var fixture = try DocsetFixture.make(version: "1", documents: 0)
        func page(_ path: String, _ bytes: [UInt8]) {
            fixture.files["Contents/Resources/Documents/\(path)"] = (bytes, 0o644)
        }
        page("plain.html", Array("<html><body><p>ordinary harmless words</p></body></html>".utf8))
        // Text that does not compress (install refuses an archive that expands more than 200:1): a 64 KiB block of
        // seeded random letters, repeated beyond gzip's 32 KiB window.
        var seed: UInt64 = 0x5EED_F00D
        let block = (0..<(64 << 10)).map { _ -> UInt8 in
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let r = UInt8(truncatingIfNeeded: seed >> 33) % 28
            return r < 26 ? UInt8(ascii: "a") + r : UInt8(ascii: " ")
        }
        func text(_ bytes: Int) -> [UInt8] { Array(repeating: block, count: bytes / block.count).flatMap { $0 } }
        // 40 MB: over the 32 MiB page limit, skipped unread.
        page("huge.html", Array("<p>hugeword ".utf8) + text(40_000_000))
        // 15 MiB of text, under the page limit: indexed, its text cut at 2 MiB.
        page("long.html", Array("<p>longpage ".utf8) + text(15 << 20))
        let depth = 200_000
        let deep = String(repeating: "<div>", count: depth) + "deepword" + String(repeating: "</div>", count: depth)
        page("deep.html", Array(deep.utf8))
        page("binary.html", Array("<p>utfword ".utf8) + [0xFF, 0xFE, 0xC3, 0x28, 0xE2, 0x82] + Array(" tail</p>".utf8))
        page(
            "bomb.html",
            Array(
                """
                <!DOCTYPE html [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
                <!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">
                <!ENTITY e "&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;"><!ENTITY f "&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;">]>
                <html><body><p>bombword &f;&f;&f;&f;&f;&f;&f;&f;&f;&f;</p></body></html>
                """.utf8))
        let archive = dir.appending("hostile.tgz")
        try fixture.writeArchive(to: archive)
        var env = ProcessInfo.processInfo.environment
        env["DOCSYNC_CONFIG"] = nil
        env["XDG_CONFIG_HOME"] = dir.appending("no-config")
        env["XDG_CONFIG_DIRS"] = dir.appending("no-config")
        let where_ = ["--root", dir.appending("root"), "--state", dir.appending("state")]
        let rss = dir.appending("rss")
        let install = try Tool.run(
            "/usr/bin/time",
            ["-f", "%M", "-o", rss, Tool.docsyncBinary, "install", archive, "--name", "Hostile", "--full-text"]
                + where_, environment: env)
        #expect(install.status == 0, "\(install.standardError)")
        #expect(install.standardError.contains("huge.html"), "the skipped page is named: \(install.standardError)")
        #expect(!install.standardError.contains("plain.html"))
        let peakKiB = Int(
            try String(contentsOfFile: rss, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines))
        #expect((peakKiB ?? .max) < 256 << 10, "peak RSS \(peakKiB ?? -1) KiB")
        func found(_ word: String) throws -> [String] {
            let result = try Tool.run(
                Tool.docsyncBinary, ["search", "--text", word, "--json"] + where_, environment: env)
            return result.standardOutput.split(separator: "\n").compactMap {
                (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["page"] as? String
            }
        }
        #expect(try found("harmless") == ["plain.html"])
        #expect(try found("longpage") == ["long.html"])
        #expect(try found("utfword") == ["binary.html"])
        #expect(try found("bombword") == ["bomb.html"])
        #expect(try found("aaaaaaaaaa").isEmpty, "no entity was expanded")
        #expect(try found("hugeword").isEmpty, "the page over the limit is not indexed")
        let deepHits = try found("deepword")
        #expect(deepHits == ["deep.html"] || deepHits.isEmpty, "libxml2 may stop at its depth limit: \(deepHits)")
    }
}
