package import DocSyncInstall

extension SyncEngine {
    /// Compares installed docsets with the manifests recorded at install (`docsync verify`).
    package func verify(names: [String] = []) async throws -> [DocsetVerification] {
        try await installer.verify(names: names)
    }

    /// `sync --repair`: docsets the plan would leave unchanged but whose tree is damaged are reinstalled through the
    /// normal download-and-publish path (a fresh download: archives are not kept).
    func repairing(_ plan: SyncPlan) async -> SyncPlan {
        let unchanged = plan.actions.compactMap { action -> String? in
            if case .unchanged(let candidate, _) = action { return candidate.name }
            return nil
        }
        guard !unchanged.isEmpty, let results = try? await verify(names: unchanged) else { return plan }
        let damaged = Set(results.filter(\.isDamaged).map(\.name))
        return SyncPlan(
            actions: plan.actions.map { action in
                if case .unchanged(let candidate, let installed) = action, damaged.contains(candidate.name) {
                    return .update(candidate, from: installed)
                }
                return action
            })
    }
}
