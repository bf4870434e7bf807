import DocSyncFeed
import Foundation
import Testing

/// A 100 MB feed parses with flat memory.
///
/// How it is measured, in this test process: after the feed file is written (in 1 MiB chunks, never whole in
/// memory), writing "5" to /proc/self/clear_refs resets the kernel's peak-RSS mark (VmHWM) to the current RSS,
/// which is the baseline. After the parse, VmHWM is the highest RSS reached meanwhile; the growth over the
/// baseline must stay under 64 MiB. The suite is serialized; tests of other suites running in parallel in the
/// same process can only add to the peak (they allocate little), so the check errs on the strict side.
@Suite(.serialized)
struct LargeFeedMemoryTests {
    static let entryCount = 2_000
    /// ~50 KiB of escaped HTML per entry: ~100 MiB in all, mostly content the parser streams past.
    static let contentLinesPerEntry = 500

    @Test func parses100MBFeedUnder64MiB() throws {
        let directory = try TemporaryDirectoryForFeeds()
        defer { directory.remove() }
        let path = directory.path + "/large.atom"
        try Self.writeFeed(to: path)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(size >= 100_000_000)

        let baseline = try Self.resetPeakAndReadRSS()
        let document = try FeedParser.parse(
            fileAt: path, documentURL: "https://docs.example/feeds/large.atom", limits: FeedLimits(maxBytes: 256 << 20))
        let peak = try Self.status("VmHWM")

        #expect(document.entries.count == Self.entryCount)
        #expect(
            document.entries.last?.archives.first?.url == "https://docs.example/docsets/d\(Self.entryCount - 1).xar")
        let growth = peak - baseline
        #expect(growth < 64 << 20, "peak RSS grew by \(growth >> 20) MiB while parsing a \(size >> 20) MiB feed")
    }

    static func writeFeed(to path: String) throws {
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
        for index in 0..<entryCount {
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

    /// Resets VmHWM to the current RSS and returns that RSS, in bytes.
    static func resetPeakAndReadRSS() throws -> Int {
        try "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
        return try status("VmRSS")
    }

    /// A `kB` field of /proc/self/status, in bytes.
    static func status(_ field: String) throws -> Int {
        let text = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
            if let kilobytes = Int(line.dropFirst(field.count + 1).split(whereSeparator: \.isWhitespace).first ?? "") {
                return kilobytes * 1024
            }
        }
        throw CocoaError(.fileReadCorruptFile)
    }
}
