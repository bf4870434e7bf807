import Foundation
import TestSupport
import Testing

/// The check the SIGKILL loops make after every kill (`SyncHarness.resolvedManifest`) fails on a `NAME.docset` that
/// does not resolve to a complete version, instead of treating it as "not installed".
@Suite(.timeLimit(.minutes(10))) struct KillLoopCheckTests {
    @Test(arguments: [
        ("dangling", ".docsync/versions/Big@gone"), ("outside", "../elsewhere"), ("not a version", "Big-copy"),
    ])
    func anUnresolvableDocsetLinkIsAFailure(label: String, target: String) throws {
        let h = try SyncHarness.inMemory()
        try FileManager.default.createDirectory(
            atPath: "\(h.root)/.docsync/versions", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: "\(h.root)/Big-copy", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: "\(h.root)/Big.docset", withDestinationPath: target)
        #expect(throws: SyncHarness.Unresolvable.self, "\(label)") { try h.resolvedManifest("Big") }
        #expect(h.installedManifest("Big") == nil || label == "not a version", "the old check let it pass")
    }

    @Test func noEntryMeansNotInstalled() throws {
        let h = try SyncHarness.inMemory()
        #expect(try h.resolvedManifest("Big") == nil)
    }
}
