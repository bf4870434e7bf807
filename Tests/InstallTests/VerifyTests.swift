import DocSync
import Foundation
import TestSupport
import Testing

/// Damage to an installed tree is noticed by `verify` (manifest recorded at install).
@Suite(.timeLimit(.minutes(10))) struct VerifyTests {
    @Test func anIntactInstallVerifiesAndDamageIsReported() async throws {
        let h = try InstallHarness()
        defer { h.dir.remove() }
        let installed = try await h.installOld()
        #expect(try await h.installer.verify(names: [h.name]).map(\.status) == [.intact])
        // The manifest lives beside the tree, not in it.
        #expect(!FileManager.default.fileExists(atPath: "\(installed.path)/manifest"))

        try FileManager.default.removeItem(atPath: "\(installed.path)/Contents/Info.plist")
        try Data("changed".utf8).write(to: URL(fileURLWithPath: "\(installed.path)/meta.json"))
        try Data("extra".utf8).write(to: URL(fileURLWithPath: "\(installed.path)/Contents/extra.txt"))
        let result = try #require(try await h.installer.verify().first)
        guard case .damaged(let problems) = result.status else {
            Issue.record("damage not noticed: \(result)")
            return
        }
        #expect(problems.contains("missing Contents/Info.plist"), "\(problems)")
        #expect(problems.contains { $0.hasPrefix("changed meta.json") }, "\(problems)")
        #expect(problems.contains("unexpected Contents/extra.txt"), "\(problems)")
    }

    @Test func aContentChangeOfTheSameSizeIsNoticed() async throws {
        let h = try InstallHarness()
        defer { h.dir.remove() }
        let installed = try await h.installOld()
        let page = "\(installed.path)/Contents/Resources/Documents/page0.html"
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: page)))
        bytes[0] ^= 1
        try Data(bytes).write(to: URL(fileURLWithPath: page))
        let status = try await h.installer.verify(names: [h.name]).first?.status
        #expect(status == .damaged(["changed Contents/Resources/Documents/page0.html (content)"]))
    }

    @Test func aForeignFolderIsUnverifiableNotDamaged() async throws {
        let h = try InstallHarness()
        defer { h.dir.remove() }
        try FileManager.default.createDirectory(atPath: h.docsetPath, withIntermediateDirectories: true)
        let result = try await h.installer.verify(names: [h.name])
        #expect(result.first?.isDamaged == false)
    }
}
