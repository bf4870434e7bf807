import DocSync
import Foundation
import TestSupport
import Testing

/// The trash is emptied at the start and end of every run (grace period respected), partials of versions
/// no longer planned go after `partial_max_age`, and `status` shows what is reclaimable.
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct LeftoverTests {
    private func harness(extra: String = "") throws -> SyncHarness {
        let h = try SyncHarness.inMemory()
        try h.publishArchive(try DocsetFixture.make(version: "1.0"), as: "A.tgz", folder: "A")
        try h.writeAtomFeed("f.atom", [.init(identifier: "org.a", title: "A", version: "1.0", archive: "A.tgz")])
        try h.writeConfig(feeds: ["f.atom"], extra: extra)
        return h
    }

    private func touch(_ path: String, bytes: Int, daysAgo: Double) throws {
        try Data(repeating: 7, count: bytes).write(to: URL(fileURLWithPath: path))
        let date = Date(timeIntervalSinceNow: -daysAgo * 86_400)
        try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: path)
    }

    @Test func whatAKilledRunLeftIsCleanedAndStatusShowsItFirst() async throws {
        let h = try harness(extra: "[install]\npartial_max_age = \"2d\"")
        #expect(try await h.sync().status == 0)
        // A killed run's leftovers: a tree in the trash, and partials of a version no feed offers any more.
        let trash = "\(h.root)/.docsync/trash/version-A@old"
        try FileManager.default.createDirectory(atPath: trash, withIntermediateDirectories: true)
        try touch("\(trash)/big.bin", bytes: 3 << 20, daysAgo: 0)
        let staging = h.dir.appending("staging")
        try FileManager.default.createDirectory(atPath: staging, withIntermediateDirectories: true)
        try touch("\(staging)/org.a_0.9-0123456789abcdef.part", bytes: 1 << 20, daysAgo: 3)
        try touch("\(staging)/org.a_0.9-0123456789abcdef.journal", bytes: 100, daysAgo: 3)
        try touch("\(staging)/org.b_2.0-0123456789abcdef.part", bytes: 1 << 20, daysAgo: 0.5)  // recent: kept
        try touch("\(staging)/unrelated.txt", bytes: 10, daysAgo: 30)  // not docsync's: kept

        let status = try h.run(["status"])
        #expect(status.standardOutput.contains("Reclaimable"), "\(status.standardOutput)")
        #expect(status.standardOutput.contains("trash: 3"), "\(status.standardOutput)")
        #expect(status.standardOutput.contains("1 partial download"), "\(status.standardOutput)")

        let second = try await h.sync()
        #expect(second.status == 0, "\(second.lines)")
        let trashLeft = try FileManager.default.subpathsOfDirectory(atPath: "\(h.root)/.docsync/trash")
        #expect(trashLeft.isEmpty, "\(trashLeft)")
        let left = try FileManager.default.contentsOfDirectory(atPath: staging).filter { $0 != "complete" }.sorted()
        #expect(left == ["org.b_2.0-0123456789abcdef.part", "unrelated.txt"], "\(left)")
        #expect(!(try h.run(["status"]).standardOutput.contains("Reclaimable")))
    }

    @Test func aFailedUpdateLeavesNoExtractionBehind() async throws {
        let h = try harness()
        #expect(try await h.sync().status == 0)
        // Version 2.0 is not a docset: extraction fails after writing files.
        try ArchiveFixture.write(
            to: "\(h.www)/A-2.tgz", [.directory("A.docset"), .file("A.docset/readme.txt", "not a docset")])
        try h.writeAtomFeed("f.atom", [.init(identifier: "org.a", title: "A", version: "2.0", archive: "A-2.tgz")])
        let failed = try await h.sync()
        #expect(failed.status == 3)
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(h.root)/.docsync/trash").isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(h.root)/.docsync/staging").isEmpty)
    }
}
