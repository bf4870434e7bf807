import DocSync
import Foundation
import TestSupport
import Testing

@testable import DocSyncCLI

/// `--only NAME` and `remove NAME` that match nothing: an error listing the names that exist, with a near match.
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct UnknownDocsetTests {
    @Test(arguments: [
        ("apidoc", ["apiDoc", "Swift"], "apiDoc"),
        ("Swfit", ["apiDoc", "Swift"], "Swift"),
        ("Pyhton_3", ["Python_3", "Python_2"], "Python_3"),
        ("zzz", ["apiDoc", "Swift"], nil),
        ("C", ["Go", "Rust"], nil),
    ] as [(String, [String], String?)])
    func theNearestKnownNameIsSuggested(name: String, known: [String], suggestion: String?) throws {
        let error = try #require(UnknownDocsetError.check(requested: [name], known: known))
        #expect(error.unknown.map(\.name) == [name] && error.unknown.map(\.suggestion) == [suggestion])
        #expect(UnknownDocsetError.check(requested: known, known: known) == nil)
    }

    @Test func syncOnlyAndRemoveWithAnUnknownNameFail() async throws {
        let h = try SyncHarness.inMemory()
        try h.publishArchive(try DocsetFixture.make(version: "1"), as: "A.tgz", folder: "apiDoc")
        try h.writeAtomFeed(
            "f.atom", [.init(identifier: "org.api", title: "apiDoc", version: "1", archive: "A.tgz")])
        try h.writeConfig(feeds: ["f.atom"])
        do {
            let only = try await h.sync(SyncOptions(only: ["apidoc"]))
            Issue.record("sync --only apidoc ran: \(only.lines)")
        } catch {
            #expect(ErrorExit.code(for: error).rawValue == 64, "a usage error: \(error)")
            #expect(
                UserText.describe(error).contains(
                    "no docset named \"apidoc\" (did you mean \"apiDoc\"?); known: apiDoc"), "\(error)")
        }
        #expect(!FileManager.default.fileExists(atPath: "\(h.root)/apiDoc.docset"))

        #expect(try await h.sync(SyncOptions(only: ["apiDoc"])).status == 0)
        let remove = try h.run(["remove", "APIDOC"])
        #expect(remove.status == 64, "\(remove.standardError)")
        #expect(remove.standardError.contains("(did you mean \"apiDoc\"?)"), "\(remove.standardError)")
        #expect(FileManager.default.fileExists(atPath: "\(h.root)/apiDoc.docset"))
    }
}
