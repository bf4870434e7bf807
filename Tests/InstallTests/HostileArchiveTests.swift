import DocSync
import DocSyncInstall
import Foundation
import TestSupport
import Testing

/// One hostile archive shape per test: each is a real archive written with libarchive, installed over an existing
/// version; the install must fail with the named rule and change nothing outside its staging folder.
@Suite(.timeLimit(.minutes(10))) struct HostileArchiveTests {
    /// A valid docset followed by `extra` entries, as a pax tgz.
    private func hostile(_ harness: InstallHarness, _ extra: [ArchiveWriter.Entry], before: [ArchiveWriter.Entry] = [])
        throws -> String
    {
        let path = harness.archive("hostile.tgz")
        try DocsetFixture.make(version: "new").writeArchive(to: path, before: before, after: extra)
        return path
    }

    @Test func dotDotTraversal() async throws {
        let h = try InstallHarness()
        defer { h.dir.remove() }
        let path = try hostile(h, [.file("Fixture.docset/../../victim/owned", "x")])
        try await h.expectRejected(path) { $0.isRejection(.parentTraversal) }
        #expect(!FileManager.default.fileExists(atPath: "\(h.victim)/owned"))
    }

    @Test func absolutePath() async throws {
        let h = try InstallHarness()
        defer { h.dir.remove() }
        let path = try hostile(h, [.file("\(h.victim)/owned", "x")])
        try await h.expectRejected(path) { $0.isRejection(.absolutePath) }
    }

    @Test func symlinkToEtcPasswd() async throws {
        let h = try InstallHarness()
        defer { h.dir.remove() }
        let path = try hostile(
            h, [ArchiveWriter.Entry("Fixture.docset/Contents/passwd", .symlink(target: "/etc/passwd"))])
        try await h.expectRejected(path) { $0.isRejection(.symlinkEscapes(target: "/etc/passwd")) }
    }

    @Test func symlinkClimbingOutOfTheDocset() async throws {
        let h = try InstallHarness()
        defer { h.dir.remove() }
        let path = try hostile(h, [ArchiveWriter.Entry("Fixture.docset/Contents/up", .symlink(target: "../../victim"))])
        try await h.expectRejected(path) { $0.isRejection(.symlinkEscapes(target: "../../victim")) }
    }

    @Test func symlinkThenWriteThroughIt() async throws {
        let h = try InstallHarness()
        defer { h.dir.remove() }
        let path = try hostile(
            h,
            [
                ArchiveWriter.Entry("Fixture.docset/Contents/alias", .symlink(target: "Resources")),
                .file("Fixture.docset/Contents/alias/through.html", "x"),
            ])
        try await h.expectRejected(path) { $0.isRejection(.writeThroughSymlink) }
    }

    @Test func directoryThenSymlinkOfTheSameNameThenFileUnderIt() async throws {
        // The CVE-2021-31566 shape: the directory must not be replaced by the link, nor written through.
        let h = try InstallHarness()
        defer { h.dir.remove() }
        let path = try hostile(
            h,
            [
                .directory("Fixture.docset/Contents/d"),
                ArchiveWriter.Entry("Fixture.docset/Contents/d", .symlink(target: "Resources")),
                .file("Fixture.docset/Contents/d/x.html", "x"),
            ])
        try await h.expectRejected(path) { $0.isRejection(.conflictingDuplicate) }
    }

    @Test func hardlinkToAnAbsolutePath() async throws {
        let h = try InstallHarness()
        defer { h.dir.remove() }
        let path = try hostile(h, [ArchiveWriter.Entry("Fixture.docset/Contents/h", .hardlink(target: "/etc/passwd"))])
        try await h.expectRejected(path) { $0.isRejection(.hardlink) }
    }

    @Test func hardlinkWithDataAsAPaxEntry() async throws {
        let h = try InstallHarness()
        defer { h.dir.remove() }
        let entry = ArchiveWriter.Entry(
            "Fixture.docset/Contents/h", .hardlink(target: "\(h.victim)/precious.txt", data: Array("owned\n".utf8)))
        let path = try hostile(h, [entry])
        try await h.expectRejected(path) { $0.isRejection(.hardlink) }
    }

    @Test func hardlinkWithDotDot() async throws {
        let h = try InstallHarness()
        defer { h.dir.remove() }
        let path = try hostile(
            h, [ArchiveWriter.Entry("Fixture.docset/Contents/h", .hardlink(target: "../../victim/precious.txt"))])
        try await h.expectRejected(path) { $0.isRejection(.hardlink) }
    }

    @Test func characterDevice() async throws {
        let h = try InstallHarness()
        defer { h.dir.remove() }
        let path = try hostile(h, [ArchiveWriter.Entry("Fixture.docset/Contents/null", .characterDevice)])
        try await h.expectRejected(path) { $0.isRejection(.specialFile("character device")) }
    }

    @Test func fifo() async throws {
        let h = try InstallHarness()
        defer { h.dir.remove() }
        let path = try hostile(h, [ArchiveWriter.Entry("Fixture.docset/Contents/pipe", .fifo)])
        try await h.expectRejected(path) { $0.isRejection(.specialFile("FIFO")) }
    }

    @Test func fileUnderAFile() async throws {
        let h = try InstallHarness()
        defer { h.dir.remove() }
        let path = try hostile(
            h, [.file("Fixture.docset/Contents/Resources/Documents/page0.html/x", "file under a file")])
        try await h.expectRejected(path) { $0.isRejection(.writeThroughSymlink) }
    }

    @Test func fileThenDirectoryOfTheSameName() async throws {
        let h = try InstallHarness()
        defer { h.dir.remove() }
        let path = try hostile(h, [.directory("Fixture.docset/Contents/Info.plist")])
        try await h.expectRejected(path) { $0.isRejection(.conflictingDuplicate) }
    }

    @Test func veryLongPath() async throws {
        let h = try InstallHarness()
        defer { h.dir.remove() }
        let long =
            "Fixture.docset/Contents/"
            + Array(repeating: String(repeating: "x", count: 100), count: 11)
            .joined(separator: "/")
        let path = try hostile(h, [.file(long, "x")])
        try await h.expectRejected(path) { $0.isRejection(.pathTooLong(limit: 1024)) }
    }

    @Test func gzipBomb() async throws {
        // 256 MiB of zeros compress to ~250 KB: over 200:1, caught from the declared size before anything is written.
        let h = try InstallHarness()
        defer { h.dir.remove() }
        let zeros = [UInt8](repeating: 0, count: 256 << 20)
        let path = try hostile(h, [ArchiveWriter.Entry("Fixture.docset/Contents/zeros", .file(data: zeros))])
        try await h.expectRejected(path) { $0.isRejection(.expansionRatioExceeded(limit: 200)) }
    }

    @Test func zipBomb() async throws {
        // Caught from the central directory's sizes; a streamed entry without sizes is caught by counting the bytes
        // produced (EntryPolicyTests.producedBytesAreCappedLikeDeclaredOnes).
        var limits = InstallLimits()
        limits.ratioAllowance = 1 << 20
        let h = try InstallHarness(limits: limits)
        defer { h.dir.remove() }
        let path = h.archive("bomb.zip")
        try DocsetFixture.make(version: "new").writeArchive(
            to: path, format: .zip, filter: .none,
            after: [
                ArchiveWriter.Entry(
                    "Fixture.docset/Contents/zeros", .file(data: [UInt8](repeating: 0, count: 64 << 20)))
            ])
        try await h.expectRejected(path) { $0.isRejection(.expansionRatioExceeded(limit: 200)) }
    }

    @Test func sparseFileDeclaringATerabyte() async throws {
        let h = try InstallHarness()
        defer { h.dir.remove() }
        let entry = ArchiveWriter.Entry("Fixture.docset/Contents/sparse", .sparse(size: 1 << 40, data: [1, 2, 3, 4]))
        let path = try hostile(h, [entry])
        try await h.expectRejected(path) { $0.isRejection(.fileTooLarge(limit: InstallLimits().maxFileBytes)) }
    }

    @Test func totalBytesCap() async throws {
        var limits = InstallLimits()
        limits.maxTotalBytes = 64 << 10  // the fixture itself is ~15 KB
        let h = try InstallHarness(limits: limits)
        defer { h.dir.remove() }
        let big = ArchiveWriter.Entry("Fixture.docset/Contents/big", .file(data: Array(repeating: 7, count: 100 << 10)))
        let path = try hostile(h, [big])
        try await h.expectRejected(path) { $0.isRejection(.totalBytesExceeded(limit: 64 << 10)) }
    }

    @Test func entryCountCap() async throws {
        var limits = InstallLimits()
        limits.maxEntryCount = 20
        let h = try InstallHarness(limits: limits)
        defer { h.dir.remove() }
        let extra = (0..<30).map {
            ArchiveWriter.Entry.file("Fixture.docset/Contents/Resources/Documents/e\($0).html", "e")
        }
        let path = try hostile(h, extra)
        try await h.expectRejected(path) { $0.isRejection(.tooManyEntries(limit: 20)) }
    }

    @Test func truncatedStream() async throws {
        let h = try InstallHarness()
        defer { h.dir.remove() }
        let path = try hostile(h, [])
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: path))
        try await h.expectRejected(path) { $0.isUnreadable }
    }

    @Test func corruptStream() async throws {
        let h = try InstallHarness()
        defer { h.dir.remove() }
        let path = try hostile(h, [])
        var data = try Data(contentsOf: URL(fileURLWithPath: path))
        for i in stride(from: 200, to: data.count - 64, by: 97) { data[i] ^= 0x5A }
        try data.write(to: URL(fileURLWithPath: path))
        try await h.expectRejected(path) { $0.isUnreadable }
    }

    @Test func mtreeNamingHostFiles() async throws {
        let h = try InstallHarness()
        defer { h.dir.remove() }
        let path = h.archive("host.mtree")
        let mtree = "#mtree\n./Contents/Info.plist type=file contents=/etc/passwd\n./Contents/Resources type=dir\n"
        try Data(mtree.utf8).write(to: URL(fileURLWithPath: path))
        try await h.expectRejected(path) { $0.isUnreadable }
    }

    @Test func notADocset() async throws {
        let h = try InstallHarness()
        defer { h.dir.remove() }
        let path = h.archive("plain.tgz")
        try ArchiveFixture.write(
            to: path, [.directory("Fixture.docset/Contents"), .file("Fixture.docset/Contents/readme", "hi")])
        try await h.expectRejected(path) { error in
            guard case .notADocset(let missing) = error else { return false }
            return missing == [
                "Contents/Info.plist", "Contents/Resources/docSet.dsidx",
                "Contents/Resources/Documents/ or Contents/Resources/Documentation/",
            ]
        }
    }
}
