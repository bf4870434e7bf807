internal import DocSyncMirror
internal import DocSyncSupport

extension SyncEngine {
    /// The end of a sync with `[mirror]`: publish. Returns the failures the run's summary counts (so the run exits 3):
    /// a publish that could not write the tree (one `failed` event named `[mirror]`), and each docset whose archive
    /// could not be had for the pool (its feed keeps the version published before). Docsets with nothing to publish
    /// (installed without a checksum) are `skipped` events, not failures.
    func publishMirrorAfterSync(emit: @escaping @Sendable (SyncEvent) -> Void) async -> Int {
        guard configuration.mirror != nil else { return 0 }
        do {
            let report = try await publishMirrorLocked()
            for (name, reason) in report.skipped { emit(.skipped(name: name, reason: "mirror: \(reason)")) }
            for failure in report.failed {
                emit(.failed(name: "[mirror]", failure: Self.mirrorFailure(failure)))
            }
            return report.failed.count
        } catch {
            var failure = SyncFailure(error)
            failure.message = "mirror publish: \(failure.message); the previously published tree is unchanged"
            emit(.failed(name: "[mirror]", failure: failure))
            return 1
        }
    }

    /// `mirror publish: NAME: REASON; its feed keeps version V` (or: is not published).
    package static func mirrorFailure(_ failure: (name: String, reason: String, kept: String?)) -> SyncFailure {
        let outcome =
            failure.kept.map { "its feed keeps the version published before (\($0.isEmpty ? "unversioned" : $0))" }
            ?? "it is not published (no earlier version is)"
        return SyncFailure(
            code: .io,
            message: "mirror publish: \(failure.name): its archive could not be obtained (\(failure.reason)); \(outcome)")
    }
}
