import DocSyncIndex
internal import DocSyncInstall
internal import DocSyncSupport
import Foundation

extension SyncEngine {
    /// What `relayout()` did to one docset.
    package struct Relayout: Sendable {
        /// The docset's name.
        package var name: String
        /// Its layout before and the one wanted (`[install] layout` / `layouts`).
        package var from: InstalledDocset.Layout
        package var to: InstalledDocset.Layout
        /// Why the conversion failed (the installed version is unchanged); nil when it is in place.
        package var failure: String?
    }

    /// `docsync sync --relayout`: converts every installed docset whose layout is not the configured one, through
    /// the normal atomic install path and without downloading (`Installer.relayout`), then builds the new
    /// versions' derived indexes (name and text). Waits for a sync in progress (the state folder's lock). One docset's failure is
    /// reported, never stops the others.
    package func relayout() async throws(SyncFailure) -> [Relayout] {
        let lock = try await waitForExclusion()
        defer { withExtendedLifetime(lock) {} }
        let installed: [InstalledDocset]
        do { installed = try installedDocsets() } catch { throw SyncFailure(error, url: nil) }
        let scratch = configuration.staging
        try? FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        var results: [Relayout] = []
        for docset in installed where docset.version != nil {
            let wanted = configuration.install.layout(of: docset.name)
            guard docset.layout != wanted else { continue }
            var result = Relayout(name: docset.name, from: docset.layout, to: wanted)
            do {
                if let record = try await installer.relayout(
                    name: docset.name, to: wanted, scratch: scratch)
                {
                    let indexed = Self.indexed(InstalledDocset(record))
                    let state = configuration.state
                    _ = try? await BlockingPool.shared.perform(refused: { DocsetIndexError.io(indexed.name, "\($0)") }) {
                        () throws(DocsetIndexError) in try DocsetIndex.prepare(indexed, stateDirectory: state)
                    }
                }
            } catch {
                result.failure = error.description
            }
            results.append(result)
        }
        removeUnusedIndexes()
        await buildTextIndexes(emit: { _ in })  // the new versions' (a failed build is done again by the next sync)
        await installer.waitForBackgroundWork()
        return results
    }
}
