import DocSync
import Foundation

extension SyncEngine {
    /// Installs a generated docset (`fixture`, else `DocsetFixture.make(version:)`) as `name` at `version` from a
    /// local archive written into `folder`, in `layout` (else the configured one): how reader-side tests (search,
    /// serve, leases) get a docset with no feed.
    @discardableResult
    package func installGenerated(
        _ name: String, version: String, fixture: DocsetFixture? = nil, layout: InstalledDocset.Layout? = nil,
        in folder: TemporaryDirectory
    ) async throws -> InstalledDocset {
        let archive = folder.appending("\(name)-\(version).tgz")
        try (fixture ?? DocsetFixture.make(version: version)).writeArchive(to: archive)
        return try await install(archive: archive, name: name, version: version, layout: layout)
    }

    /// One sync with nothing to fetch: what prunes replaced versions past their grace period.
    package func pruneBySyncing() async throws {
        for try await _ in sync() {}
    }
}
