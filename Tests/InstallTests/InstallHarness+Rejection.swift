import DocSyncInstall
import Foundation
import TestSupport
import Testing

extension InstallHarness {
    /// Installs `archivePath` over an installed old version and checks that it fails with `matches`, changes
    /// nothing outside staging, and leaves no staging behind. `context` (e.g. a random test's case and seed) is named
    /// in every failure.
    func expectRejected(
        _ archivePath: String, context: String = "", sourceLocation: SourceLocation = #_sourceLocation,
        _ matches: (InstallError) -> Bool
    ) async throws {
        try await installOld()
        let before = try snapshot()
        do {
            let installed = try await installer.install(
                archive: archivePath, as: InstallRequest(name: name, version: "new"))
            Issue.record(
                "installed \(installed.path) but expected a rejection \(context)", sourceLocation: sourceLocation)
        } catch {
            #expect(matches(error), "unexpected error: \(error) \(context)", sourceLocation: sourceLocation)
        }
        await installer.waitForBackgroundWork()
        #expect(
            try snapshot() == before, "something changed outside staging \(context)", sourceLocation: sourceLocation)
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(root)/.docsync/staging").isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(root)/.docsync/trash").isEmpty)
        #expect(try String(contentsOfFile: "\(victim)/precious.txt", encoding: .utf8) == "precious\n")
    }
}

extension InstallError {
    func isRejection(_ rule: EntryRule) -> Bool {
        if case .rejected(_, let actual) = self { return actual == rule }
        return false
    }

    var isUnreadable: Bool {
        if case .unreadableArchive = self { return true }
        return false
    }
}
