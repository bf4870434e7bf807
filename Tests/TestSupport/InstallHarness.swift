import DocSync
import DocSyncInstall
import Foundation

/// A temp folder with a docset root, a "victim" folder beside it that no archive may touch, and an installer.
public struct InstallHarness: Sendable {
    public let dir: TemporaryDirectory
    public let installer: Installer
    public let name = "Fixture"

    public var root: String { dir.appending("root") }
    public var victim: String { dir.appending("victim") }

    public init(limits: InstallLimits = InstallLimits(), grace: Duration = .seconds(600)) throws {
        dir = try TemporaryDirectory("install")
        try FileManager.default.createDirectory(atPath: dir.appending("victim"), withIntermediateDirectories: true)
        try Data("precious\n".utf8).write(to: URL(fileURLWithPath: dir.appending("victim/precious.txt")))
        try FileManager.default.createDirectory(atPath: dir.appending("archives"), withIntermediateDirectories: true)
        installer = Installer(
            root: dir.appending("root"), configuration: InstallConfiguration(limits: limits, gracePeriod: grace))
    }

    public func archive(_ file: String) -> String { dir.appending("archives/\(file)") }

    public var docsetPath: String { "\(root)/\(name).docset" }

    /// Installs version "old" and returns it.
    @discardableResult
    public func installOld() async throws -> InstallRecord {
        let fixture = try DocsetFixture.make(version: "old")
        let path = archive("old.tgz")
        try fixture.writeArchive(to: path)
        return try await installer.install(archive: path, as: InstallRequest(name: name, version: "old"))
    }

    /// Everything in the temp folder except staging, trash and the archives: what a failed install must not change.
    public func snapshot() throws -> [String: String] {
        try TreeManifest.of(dir.path, excluding: []).filter { path, _ in
            !path.hasPrefix("root/.docsync/staging/") && !path.hasPrefix("root/.docsync/trash/")
                && !path.hasPrefix("archives/")
        }
    }
}
