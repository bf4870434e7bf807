import DocSync
import Foundation
import TestSupport
import Testing

/// The library example of the DocC article *Using the library* (moved there from README) is
/// `ReadmeExample.swift`, compiled with this target, and it runs.
@Suite(
    .enabled(if: Nginx.isInstalled, "nginx is not installed (scripts/bootstrap installs it)"),
    .timeLimit(.minutes(10)), .blockingWaits)
struct ReadmeExampleTests {
    static let marker = "<!-- Tests/DocsTests/ReadmeExample.swift -->"

    @Test func readmeShowsTheCompiledExample() throws {
        let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let readme = try String(
            contentsOf: here.appendingPathComponent("../../Sources/DocSync/DocSync.docc/UsingTheLibrary.md"),
            encoding: .utf8)
        let example = try String(contentsOf: here.appendingPathComponent("ReadmeExample.swift"), encoding: .utf8)
        let after = try #require(
            readme.range(of: Self.marker + "\n```swift\n"), "UsingTheLibrary.md lacks \(Self.marker)")
        let end = try #require(readme.range(of: "\n```\n", range: after.upperBound..<readme.endIndex))
        #expect(String(readme[after.upperBound..<end.lowerBound]) + "\n" == example)
    }

    @Test func theExampleRunsAgainstARealFeed() async throws {
        let h = try SyncHarness()
        try h.publishArchive(try DocsetFixture.make(version: "1", indexRows: 4), as: "A.tgz", folder: "A")
        try h.writeAtomFeed("f.atom", [.init(identifier: "org.a", title: "A", version: "1", archive: "A.tgz")])
        try h.writeConfig(feeds: ["f.atom"])
        var paths: [String] = []
        try await syncAndReindex(configFile: h.configPath) { paths.append($0) }
        #expect(paths.count == 1 && paths.allSatisfy { SQLiteIndex.count($0) == 4 })
    }
}
