import DocSync
import Foundation
import TestSupport
import Testing

/// `install --name` with control characters, `/`, `.` or `..` is refused with a clear message, creates
/// nothing, and the message shows the name escaped.
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct UnsafeNameTests {
    @Test(arguments: ["\u{1B}[31mred", "line\nbreak", "c1\u{9B}x", "..", ".", "a/b"])
    func anUnsafeNameIsRefusedAndNothingCreated(_ name: String) throws {
        let h = try InstallHarness()
        defer { h.dir.remove() }
        let path = h.archive("v1.tgz")
        try DocsetFixture.make(version: "1").writeArchive(to: path)
        let result = try Tool.run(Tool.docsyncBinary, ["install", path, "--root", h.root, "--name", name])
        #expect(result.status != 0)
        #expect(result.standardError.contains("invalid docset name"), "\(result.standardError)")
        #expect(!result.standardError.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{9B}" })
        let created = (try? FileManager.default.contentsOfDirectory(atPath: h.root)) ?? []
        #expect(created.allSatisfy { $0 == ".docsync" }, "created \(created)")
    }
}
