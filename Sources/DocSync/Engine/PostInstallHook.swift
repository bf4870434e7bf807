import Synchronization
internal import DocSyncSupport
import Foundation

/// Runs the configured post-install command through `/bin/sh -c`, with the docset in environment variables:
/// `DOCSYNC_NAME`, `DOCSYNC_VERSION`, `DOCSYNC_IDENTIFIER`, `DOCSYNC_PATH` (the resolved version folder) and
/// `DOCSYNC_INDEX` (its `docSet.dsidx`). For indexing backends not written in Swift. The command runs in a process
/// group of its own; past `timeout` (or when the sync is cancelled) the whole group gets SIGTERM, then SIGKILL.
struct PostInstallHook: Sendable {
    let command: String
    var timeout: Duration = .seconds(600)
    var killGrace: Duration = .seconds(5)

    /// Nil on success, else how it failed.
    func run(for docset: InstalledDocset) async -> HookFailure? {
        var environment = ProcessInfo.processInfo.environment
        environment["DOCSYNC_NAME"] = docset.name
        environment["DOCSYNC_VERSION"] = docset.version ?? ""
        environment["DOCSYNC_IDENTIFIER"] = docset.identifier ?? ""
        environment["DOCSYNC_PATH"] = docset.path
        environment["DOCSYNC_INDEX"] = docset.indexPath
        var shell = ChildProcess(path: "/bin/sh", arguments: ["-c", command], environment: environment)
        shell.killGrace = killGrace
        let child = shell
        let cancelled = CancellationFlag()
        let timeout = self.timeout
        let result = await withTaskCancellationHandler {
            await WorkerThread.run(name: "docsync-hook") { child.run(timeout: timeout) { cancelled.isSet } }
        } onCancel: {
            cancelled.set()
        }
        let lines = HookFailure.lastLines(result.standardErrorTail)
        switch result.ending {
        case .exited(0): return nil
        case .exited(let status): return HookFailure(name: docset.name, exitStatus: status, standardError: lines)
        case .signalled(let signal): return HookFailure(name: docset.name, signal: signal, standardError: lines)
        case .timedOut: return HookFailure(name: docset.name, timedOut: true, standardError: lines)
        case .cancelled:
            return HookFailure(name: docset.name, signal: SIGTERM, standardError: lines + ["(stopped: sync cancelled)"])
        case .notStarted(let code):
            return HookFailure(name: docset.name, startError: "/bin/sh: \(String(cString: strerror(code)))")
        }
    }
}

/// A flag one task sets and a worker thread polls (nobody waits on it: an atomic).
final class CancellationFlag: Sendable {
    private let value = Atomic<Bool>(false)

    func set() { value.store(true, ordering: .releasing) }
    var isSet: Bool { value.load(ordering: .acquiring) }
}
