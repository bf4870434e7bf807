import DocSyncIndex
internal import DocSyncInstall
internal import DocSyncSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Builds a docset's derived search index from its staged tree while the installer makes the tree durable and
/// publishes it (`Installer.install(source:as:whenPrepared:)`), so the index is no longer a step of its own after
/// the flip: `buildIndex(for:emit:)` then finds it current and only opens it. Measured in Benchmarks/README.md
/// (stream-timeline). Nothing depends on it for correctness: a build that failed, was not started or is not current
/// is simply done again after the publish, and one for a version never published is removed with the other unused
/// indexes.
///
/// `@unchecked Sendable`: `running` is thread-safe; the rest is `let`.
final class DerivedIndexAhead: @unchecked Sendable {
    private let stateDirectory: String
    private let running = WorkCounter()

    init(stateDirectory: String) { self.stateDirectory = stateDirectory }

    /// Starts the build on a thread of its own (the installer's `whenPrepared`: returns at once). The staged folder
    /// is opened here, before the publish renames it, and the build reads it through that descriptor
    /// (`/proc/self/fd/N`): a thread that starts late, or reads a file late, still finds the tree once it has moved.
    func start(_ version: PreparedVersion) {
        let state = stateDirectory
        let folder = open(version.path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard folder >= 0 else { return }  // built after the publish instead
        let staged = IndexedDocset(name: version.name, version: nil, path: "/proc/self/fd/\(folder)")
        running.enter()
        WorkerThread.start(name: "docsync-index-ahead", stackSize: 1 << 20) { [running] in
            defer {
                close(folder)
                running.leave()
            }
            _ = try? DocsetIndex.prebuild(staged, version: version.version, stateDirectory: state)
        }
    }

    /// Waits until every build started has finished (before the index is opened, and before a failed install is
    /// reported, so no build outlives its sync).
    func finished() async {
        let running = self.running
        await WorkerThread.run(name: "docsync-index-wait") { running.waitUntilIdle() }
    }
}
