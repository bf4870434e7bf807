import DocSync
import DocSyncConfigFile
import Foundation

/// A docset root for the reader-side tests (no feeds, no server): archives are installed from local files with
/// `SyncEngine.install(archive:name:)` and pruned by real syncs.
package struct ReaderHarness {
    package let dir: TemporaryDirectory
    package let engine: SyncEngine
    package var root: String { dir.appending("root") }
    package var state: String { dir.appending("state") }
    package var configPath: String { dir.appending("docsync.toml") }

    package init(grace: String = "0s") throws {
        dir = try TemporaryDirectory("reader")
        let toml = "root = \"root\"\nstaging = \"staging\"\nstate = \"state\"\n[install]\ngrace_period = \"\(grace)\"\n"
        try toml.write(toFile: dir.appending("docsync.toml"), atomically: true, encoding: .utf8)
        engine = SyncEngine(configuration: try DocSyncConfigurationLoader().load(file: dir.appending("docsync.toml")))
    }

    /// Installs a generated docset of `version` as `name` from a local archive.
    @discardableResult
    package func install(
        _ name: String, version: String, fixture: DocsetFixture? = nil
    ) async throws -> InstalledDocset {
        try await engine.installGenerated(name, version: version, fixture: fixture, in: dir)
    }

    /// One sync with nothing to fetch: what prunes replaced versions past their grace period.
    package func prune() async throws {
        try await engine.pruneBySyncing()
    }

    /// The version folders present.
    package var versions: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "\(root)/.docsync/versions")) ?? []).sorted()
    }

    /// The derived search indexes present.
    package var derivedIndexes: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "\(state)/index")) ?? []).filter { !$0.hasPrefix(".") }
            .sorted()
    }

    package func remove() { dir.remove() }
}
