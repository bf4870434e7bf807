// Around a run: what killed runs left (staging, trash, versions), the run record and the run observers.

internal import DocSyncDownload
internal import DocSyncSupport
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// What deleting leftovers would give back (`docsync status`; `reclaimable` in `status --json`).
package struct Reclaimable: Sendable, Equatable, Encodable {
    /// Bytes in `<root>/.docsync/trash`, deleted by the next sync.
    package var trashBytes: Int64 = 0
    /// Partial downloads untouched longer than `[install] partial_max_age`, deleted by the next sync unless planned.
    package var stalePartials: Int = 0
    package var stalePartialBytes: Int64 = 0

    enum CodingKeys: String, CodingKey {
        case trashBytes = "trash_bytes"
        case stalePartials = "stale_partials"
        case stalePartialBytes = "stale_partial_bytes"
    }
}

extension SyncEngine {
    /// The trash and stale partials, measured without changing anything.
    package func reclaimable(now: Date = Date()) -> Reclaimable {
        var result = Reclaimable()
        result.trashBytes = installer.trashBytes()
        for partial in staleStagingFiles(planned: [], now: now) where partial.name.hasSuffix(".part") {
            result.stalePartials += 1
            result.stalePartialBytes += partial.bytes
        }
        return result
    }

    /// Run at the start and the end of every sync (not a dry run): the trash (grace period respected) and, at the
    /// end, staging files of versions no longer planned that are older than `partial_max_age` — or of any age when
    /// their version is superseded (``supersededStems(planned:)``).
    func collectLeftovers(plan: SyncPlan?) async {
        try? await installer.collectGarbage()
        guard let plan else { return }
        let planned = Set(
            plan.actions.compactMap { action -> String? in
                switch action {
                case .install(let c), .update(let c, _): StagingName.forKey("\(c.identifier ?? c.name)@\(c.version)")
                default: nil
                }
            })
        guard let staging = try? SafeDirectory.open(configuration.staging) else { return }
        let complete = try? staging.existingDirectory("complete")
        let superseded = supersededStems(planned: planned)
        for file in staleStagingFiles(planned: planned, now: Date(), superseded: superseded) {
            let folder = file.inComplete ? complete : staging
            guard let folder else { continue }
            if !file.inComplete, Self.isBusy(file.stem, in: folder) { continue }
            try? folder.unlink(file.name)
        }
    }

    private struct StagingLeftover {
        var name: String
        var stem: String
        var bytes: Int64
        var inComplete: Bool
    }

    /// The staging stems of partial downloads whose version can never be planned again: the journal's key names a
    /// docset (`IDENTIFIER@VERSION`) that is installed at a newer version now, and the plan does not want that
    /// version. Found through the journals docsync wrote (`PartialDownload.list`), so only docsync's own partials.
    func supersededStems(planned: Set<String>) -> Set<String> {
        // No partial downloads (every run that finished its downloads): nothing to compare, and the installed docsets
        // (a meta.json read and decoded per docset) are not read.
        let partials = PartialDownload.list(in: configuration.staging).filter {
            !planned.contains(StagingName.forKey($0.key))
        }
        guard !partials.isEmpty, let installed = try? installer.installedDocsets().map(InstalledDocset.init),
            !installed.isEmpty
        else {
            return []
        }
        var stems = Set<String>()
        for partial in partials {
            let stem = StagingName.forKey(partial.key)
            for docset in installed {
                for identity in Set([docset.identifier, docset.name].compactMap { $0 }) {
                    let prefix = "\(identity)@"
                    guard partial.key.hasPrefix(prefix) else { continue }
                    if DocsetVersion(dash: String(partial.key.dropFirst(prefix.count))) < docset.plannedVersion {
                        stems.insert(stem)
                    }
                }
            }
        }
        return stems
    }

    /// docsync's own staging files (`.part`, `.journal`, `.journal.tmp`, `.lock`, `complete/*.archive`; regular
    /// files only) whose key is not planned and which were last modified more than `partial_max_age` ago, or whose
    /// stem is in `superseded` (any age).
    private func staleStagingFiles(planned: Set<String>, now: Date, superseded: Set<String> = [])
        -> [StagingLeftover]
    {
        guard let staging = try? SafeDirectory.open(configuration.staging) else { return [] }
        let maxAge = Double(configuration.install.partialMaxAge.components.seconds)
        var found: [StagingLeftover] = []
        func scan(_ folder: SafeDirectory, suffixes: [String], inComplete: Bool) {
            for entry in (try? folder.entries()) ?? [] {
                guard let suffix = suffixes.first(where: { entry.name.hasSuffix($0) }),
                    let st = folder.status(entry.name), st.st_mode & S_IFMT == S_IFREG
                else { continue }
                let stem = String(entry.name.dropLast(suffix.count))
                let age = now.timeIntervalSince1970 - Double(st.st_mtim.tv_sec)
                guard !planned.contains(stem), age > maxAge || superseded.contains(stem) else { continue }
                found.append(
                    StagingLeftover(
                        name: entry.name, stem: stem, bytes: Int64(st.st_blocks) * 512, inComplete: inComplete))
            }
        }
        scan(staging, suffixes: [".part", ".journal.tmp", ".journal", ".lock"], inComplete: false)
        if let complete = try? staging.existingDirectory("complete") {
            scan(complete, suffixes: [".archive"], inComplete: true)
        }
        return found
    }

    /// True when another process holds the download lock of `stem` (it is resuming that partial right now).
    private static func isBusy(_ stem: String, in folder: SafeDirectory) -> Bool {
        guard let fd = try? folder.openFile("\(stem).lock", O_RDWR) else { return false }
        defer { close(fd) }
        if flock(fd, LOCK_EX | LOCK_NB) != 0 { return true }
        _ = flock(fd, LOCK_UN)  // not left to the close: a child being spawned shares the descriptor until exec
        return false
    }
}

extension SyncEngine {
    /// Records how a run ended (`last-run.json`), then tells the ``SyncRunObserver``s (metrics, …). The run's
    /// state files — `mirrors.json`, `last-sync.json` and this one, each written atomically but not synced — are
    /// made durable here together: each fsync'd, then the folder. The first fsync commits the journal with all three
    /// renames (and, on ext4, the data of a file that replaced an older one), so the others find little left to do:
    /// one or two journal commits at the end of a run instead of two per file (six after the last install, on its
    /// critical path). Not a `syncfs`: that would also write back what the run cached without syncing (feeds).
    func finish(_ record: RunRecord, summary: SyncSummary) {
        record.save(stateDirectory: configuration.state, durable: false)
        if let state = try? SafeDirectory.open(configuration.state) {
            for name in [AlternateBook.fileName, SyncRecord.fileName, RunRecord.fileName] {
                guard let file = try? state.openFile(name, O_RDONLY) else { continue }
                _ = fsync(file)
                close(file)
            }
            try? state.sync()
        }
        guard !runObservers.isEmpty else { return }
        let finished = record.finishedAt ?? Date()
        let report = SyncRunReport(
            outcome: SyncRunReport.Outcome(record.outcome), startedAt: record.startedAt, finishedAt: finished,
            lastSuccessAt: record.outcome == .ok ? finished : record.lastSuccessAt, summary: summary)
        for observer in runObservers { observer.syncRunFinished(report) }
    }
}
