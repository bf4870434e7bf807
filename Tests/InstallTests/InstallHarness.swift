import DocSync
import DocSyncInstall
import Foundation
import TestSupport
import Testing

/// A temp folder with a docset root, a "victim" folder beside it that no archive may touch, and an installer.
struct InstallHarness {
    let dir: TemporaryDirectory
    let installer: Installer
    let name = "Fixture"

    var root: String { dir.appending("root") }
    var victim: String { dir.appending("victim") }

    init(limits: InstallLimits = InstallLimits(), grace: Duration = .seconds(600)) throws {
        dir = try TemporaryDirectory("install")
        try FileManager.default.createDirectory(atPath: dir.appending("victim"), withIntermediateDirectories: true)
        try Data("precious\n".utf8).write(to: URL(fileURLWithPath: dir.appending("victim/precious.txt")))
        try FileManager.default.createDirectory(atPath: dir.appending("archives"), withIntermediateDirectories: true)
        installer = Installer(
            root: dir.appending("root"), configuration: InstallConfiguration(limits: limits, gracePeriod: grace))
    }

    func archive(_ file: String) -> String { dir.appending("archives/\(file)") }

    var docsetPath: String { "\(root)/\(name).docset" }

    /// Installs version "old" and returns it.
    @discardableResult
    func installOld() async throws -> InstallRecord {
        let fixture = try DocsetFixture.make(version: "old")
        let path = archive("old.tgz")
        try fixture.writeArchive(to: path)
        return try await installer.install(archive: path, as: InstallRequest(name: name, version: "old"))
    }

    /// Everything in the temp folder except staging, trash and the archives: what a failed install must not change.
    func snapshot() throws -> [String: String] {
        try TreeManifest.of(dir.path, excluding: []).filter { path, _ in
            !path.hasPrefix("root/.docsync/staging/") && !path.hasPrefix("root/.docsync/trash/")
                && !path.hasPrefix("archives/")
        }
    }

    /// Installs `archivePath` over an installed old version and checks that it fails with `matches`, changes
    /// nothing outside staging, and leaves no staging behind.
    func expectRejected(
        _ archivePath: String, sourceLocation: SourceLocation = #_sourceLocation,
        _ matches: (InstallError) -> Bool
    ) async throws {
        try await installOld()
        let before = try snapshot()
        do {
            let installed = try await installer.install(
                archive: archivePath, as: InstallRequest(name: name, version: "new"))
            Issue.record("installed \(installed.path) but expected a rejection", sourceLocation: sourceLocation)
        } catch {
            #expect(matches(error), "unexpected error: \(error)", sourceLocation: sourceLocation)
        }
        await installer.waitForBackgroundWork()
        #expect(try snapshot() == before, "something changed outside staging", sourceLocation: sourceLocation)
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
