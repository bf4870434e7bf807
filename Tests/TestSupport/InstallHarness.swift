import DocSync
import DocSyncInstall
import Foundation

/// A temp folder with a docset root, a "victim" folder beside it that no archive may touch, and an installer.
package struct InstallHarness: Sendable {
    package let dir: TemporaryDirectory
    package let installer: Installer
    package let name = "Fixture"

    package var root: String { dir.appending("root") }
    package var victim: String { dir.appending("victim") }

    package init(limits: InstallLimits = InstallLimits(), grace: Duration = .seconds(600)) throws {
        dir = try TemporaryDirectory("install")
        try FileManager.default.createDirectory(atPath: dir.appending("victim"), withIntermediateDirectories: true)
        try Data("precious\n".utf8).write(to: URL(fileURLWithPath: dir.appending("victim/precious.txt")))
        try FileManager.default.createDirectory(atPath: dir.appending("archives"), withIntermediateDirectories: true)
        installer = Installer(
            root: dir.appending("root"), configuration: InstallConfiguration(limits: limits, gracePeriod: grace))
    }

    package func archive(_ file: String) -> String { dir.appending("archives/\(file)") }

    package var docsetPath: String { "\(root)/\(name).docset" }

    /// Installs version "old" and returns it.
    @discardableResult
    package func installOld() async throws -> InstallRecord {
        let fixture = try DocsetFixture.make(version: "old")
        let path = archive("old.tgz")
        try fixture.writeArchive(to: path)
        return try await installer.install(archive: path, as: InstallRequest(name: name, version: "old"))
    }

    /// Everything in the temp folder except staging, trash and the archives: what a failed install must not change.
    package func snapshot() throws -> [String: String] {
        try TreeSnapshot.of(dir.path, excluding: []).filter { path, _ in
            !path.hasPrefix("root/.docsync/staging/") && !path.hasPrefix("root/.docsync/trash/")
                && !path.hasPrefix("archives/")
        }
    }
}
