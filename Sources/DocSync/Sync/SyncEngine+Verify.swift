package import DocSyncInstall
internal import DocSyncSupport

extension SyncEngine {
    /// Compares installed docsets with the manifests recorded at install (`docsync verify`). A tarix docset's
    /// archive and index are hashed like every file, and its index is then checked against its archive in full
    /// (`TarixVerifier`: every record located where the index says, every document indexed).
    package func verify(names: [String] = []) async throws -> [DocsetVerification] {
        let results = try await installer.verify(names: names)
        return await WorkerThread.run(name: "docsync-verify-tarix", stackSize: 1 << 20) {
            results.map { result in
                guard result.status == .intact, let path = result.path else { return result }
                guard let problem = TarixStore.check(docsetPath: path) else { return result }
                return DocsetVerification(name: result.name, path: path, status: .damaged([problem]))
            }
        }
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

    /// The docsets the plan leaves unchanged whose installed version lacks, or has changed, a file every reader
    /// needs (`Installer.checkEssentials`: an lstat per file against the install manifest), with what is wrong.
    func damagedEssentials(_ plan: SyncPlan) async -> [String: [String]] {
        let unchanged = plan.actions.compactMap { action -> String? in
            if case .unchanged(let candidate, _) = action { return candidate.name }
            return nil
        }
        guard !unchanged.isEmpty, let results = try? await installer.checkEssentials(names: unchanged) else {
            return [:]
        }
        var damaged: [String: [String]] = [:]
        for result in results { if case .damaged(let problems) = result.status { damaged[result.name] = problems } }
        return damaged
    }
}
