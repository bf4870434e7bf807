import DocSync
import Foundation
import TestSupport
import Testing

/// The fleet mirror and text indexes: the mirror serves archives and feeds, no text index (an index is derived
/// state, not a publisher's file); a member installing from the mirror builds its own from the pages it installed,
/// and `search --text` finds a page by what it says.
@Suite(
    .enabled(if: Nginx.isInstalled, "nginx is not installed (scripts/bootstrap installs it)"),
    .timeLimit(.minutes(10)), .blockingWaits)
struct MirrorTextIndexTests {
    @Test func aMemberInstallingFromTheMirrorBuildsItsOwnTextIndex() throws {
        var generator = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        print("MirrorTextIndexTests seed \(generator.seed) (DOCSYNC_TEST_SEED=\(generator.seed) replays it)")
        let fleet = try MirrorFleet()
        try fleet.originPublishes(version: "1.0", megabytes: 1, seed: generator.next())
        let published = try fleet.publisher(["sync"])
        #expect(published.status == 0, "\(published.standardError)")
        let served = FileManager.default.enumerator(atPath: fleet.mirrorDirectory)?.compactMap { $0 as? String } ?? []
        #expect(served.contains { $0.hasSuffix(".tgz") }, "the mirror serves the archive: \(served)")
        #expect(!served.contains { $0.contains("fulltext") || $0.hasSuffix(".db") }, "no text index: \(served)")

        let member = try fleet.client("member")
        let synced = try Tool.run(Tool.docsyncBinary, ["sync", "--config", member])
        #expect(synced.status == 0, "\(synced.standardError)")
        let folder = (member as NSString).deletingLastPathComponent
        let indexes = try FileManager.default.contentsOfDirectory(atPath: "\(folder)/state/fulltext")
        #expect(indexes.filter { $0.hasSuffix(".db") }.count == 1, "\(indexes)")
        // The fixture's pages differ by their heading, "1.0 page N": the phrase names one page.
        let search = try Tool.run(
            Tool.docsyncBinary, ["search", "--text", "\"1.0 page 2\"", "--json", "--config", member])
        #expect(search.status == 0, "\(search.standardError)")
        let pages = search.standardOutput.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["page"] as? String
        }
        #expect(pages == ["section2/page2.html"], "\(search.standardOutput)")
    }
}
