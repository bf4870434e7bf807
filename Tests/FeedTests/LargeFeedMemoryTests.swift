import DocSyncFeed
import Foundation
import TestSupport
import Testing

/// A 100 MB feed parses with flat memory.
///
/// How it is measured: `docsync feed parse --json` runs in a process of its own on the 100 MB feed (written in
/// 1 MiB chunks, never whole in memory) and on a one-entry feed of the same shape; the kernel's peak-RSS count of
/// each (`ru_maxrss`, see `PeakMemory`) differs by the memory the parse needed, which must stay under 64 MiB.
/// (Measuring this test process instead counted whatever the tests running in parallel allocated meanwhile.)
@Suite(.serialized, .timeLimit(.minutes(10)), .blockingWaits)
struct LargeFeedMemoryTests {
    static let entryCount = 2_000
    /// ~50 KiB of escaped HTML per entry: ~100 MiB in all, mostly content the parser streams past.
    static let contentLinesPerEntry = 500

    @Test func parses100MBFeedUnder64MiB() throws {
        let directory = try TemporaryDirectory("docsync-feed-test")
        defer { directory.remove() }
        let large = directory.path + "/large.atom"
        let small = directory.path + "/small.atom"
        try Self.writeFeed(to: large)
        try Self.writeFeed(to: small, entries: 1)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: large)[.size] as? Int)
        #expect(size >= 100_000_000)

        let baseline = try parse(small, output: directory.path + "/small.json")
        let json = directory.path + "/large.json"
        let peak = try parse(large, output: json)

        let document = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json)))
        let entries = try #require((document as? [String: Any])?["entries"] as? [[String: Any]])
        #expect(entries.count == Self.entryCount)
        let lastArchive = (entries.last?["archives"] as? [[String: Any]])?.first?["url"] as? String
        #expect(lastArchive == "https://docs.example/docsets/d\(Self.entryCount - 1).xar")
        let growth = peak - baseline
        #expect(growth < 64 << 20, "peak RSS grew by \(growth >> 20) MiB while parsing a \(size >> 20) MiB feed")
    }

    /// Runs `docsync feed parse --json` on `feed` (JSON to `output`); returns its peak RSS in bytes.
    private func parse(_ feed: String, output: String) throws -> Int {
        let result = try PeakMemory.run(
            Tool.docsyncBinary,
            [
                "feed", "parse", feed, "--base-url", "https://docs.example/feeds/large.atom", "--max-bytes",
                "\(256 << 20)", "--json",
            ],
            standardOutput: output)
        #expect(result.status == 0, "docsync feed parse \(feed): \(result.standardError)")
        return result.peakResidentBytes
    }

    static func writeFeed(to path: String, entries count: Int = entryCount) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil),
            let handle = FileHandle(forWritingAtPath: path)
        else { throw CocoaError(.fileWriteUnknown) }
        defer { try? handle.close() }
        let line =
            "&lt;p&gt;Lorem ipsum dolor sit amet, consectetur adipiscing elit &amp;amp; sed do eiusmod.&lt;/p&gt;\n"
        let content = String(repeating: line, count: contentLinesPerEntry)
        var chunk =
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\" "
            + "xmlns:docset=\"http://developer.apple.com/rss/docset_extensions\" xml:base=\"../docsets/\">\n"
        for index in 0..<count {
            chunk += """
                <entry><id>tag:docs.example,2024:d\(index)</id><title>Docset \(index)</title>\
                <updated>2024-01-01T00:00:00Z</updated><link rel="enclosure" href="d\(index).xar" length="\(index)"/>\
                <docset:identifier>com.example.d\(index % 50)</docset:identifier><docset:version>\(index)</docset:version>\
                <content type="html">\(content)</content><x:foreign xmlns:x="urn:x"><x:a>b</x:a></x:foreign></entry>

                """
            if chunk.utf8.count >= 1 << 20 {
                try handle.write(contentsOf: Data(chunk.utf8))
                chunk = ""
            }
        }
        chunk += "</feed>\n"
        try handle.write(contentsOf: Data(chunk.utf8))
    }
}
