import DocSyncIndex
internal import DocSyncInstall
internal import DocSyncSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Builds a docset's derived search index from its staged tree while the installer completes the tree for Zeal,
/// makes it durable and publishes it (`Installer.install(source:as:whenPrepared:)`), so the index is no longer a step
/// of its own after the flip: `buildIndex(for:emit:)` then finds it current and only opens it. Measured in
/// Benchmarks/README.md (stream-timeline). Nothing depends on it for correctness: a build that failed, was not
/// started or is not current is simply done again after the publish, and one for a version never published is
/// removed with the other unused indexes.
///
/// When the tree is extracted (stage `extracted`), the staged index is copied (`IndexSnapshot`, milliseconds) and
/// the build reads, sorts and indexes the copy's entries while Zeal's preparation writes the staged file (an index
/// on 120k names is a sort of its own, which held the build back until it was done). The build records as its
/// source the staged file as it is once prepared (stage `prepared`: `DocsetIndex.sourceSignature(of:)`, which the
/// publish keeps), and waits for it only before writing `names.bin`; a version that never gets there (the install
/// failed, or started again from byte 0) is not built. A version first seen as `prepared` is built from its tree.
///
/// `@unchecked Sendable`: `running` is thread-safe; `builds` is read and written only while holding `lock`; the rest
/// is `let`.
final class DerivedIndexAhead: @unchecked Sendable {
    private let stateDirectory: String
    private let running = WorkCounter()
    private let lock = ConditionLock()
    /// Builds started from a snapshot, by version, each waiting for its source (nil: not known yet).
    private var builds: [String: Pending] = [:]

    /// `@unchecked Sendable`: `source` and `abandoned` are read and written only while holding the owner's `lock`.
    private final class Pending: @unchecked Sendable {
        /// The staged folder, opened when it was extracted (the publish renames it); closed by `finished()`.
        let folder: Int32
        var source: String?
        var abandoned = false
        init(folder: Int32) { self.folder = folder }
    }

    init(stateDirectory: String) { self.stateDirectory = stateDirectory }

    /// The installer's `whenPrepared`: starts the build on a thread of its own (at `extracted`), or hands it its
    /// source (at `prepared`), or starts it from the prepared tree. Returns at once, but for the snapshot's copy.
    /// The staged folder is opened here, before the publish renames it, and read through that descriptor
    /// (`/proc/self/fd/N`): a thread that starts late, or reads a file late, still finds the tree once it has moved.
    func start(_ version: PreparedVersion) {
        switch version.stage {
        case .extracted: startFromSnapshot(version)
        case .prepared:
            let pending = lock.withLock { builds[version.version] }
            guard let pending else { return startFromTree(version) }
            let staged = IndexedDocset(name: version.name, version: nil, path: "/proc/self/fd/\(pending.folder)")
            let source = try? DocsetIndex.sourceSignature(of: staged)
            lock.withLock {
                if let source { pending.source = source } else { pending.abandoned = true }
                lock.broadcast()
            }
        }
    }

    /// Waits until every build started has finished (before the index is opened, and before a failed install is
    /// reported, so no build outlives its sync). A build still waiting for its source is abandoned.
    func finished() async {
        lock.withLock {
            for pending in builds.values where pending.source == nil { pending.abandoned = true }
            lock.broadcast()
        }
        let running = self.running
        await WorkerThread.run(name: "docsync-index-wait") { running.waitUntilIdle() }
        let folders = lock.withLock {
            defer { builds = [:] }
            return builds.values.map(\.folder)
        }
        for folder in folders { close(folder) }
    }

    private func startFromTree(_ version: PreparedVersion) {
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

    private func startFromSnapshot(_ version: PreparedVersion) {
        let folder = open(version.path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard folder >= 0 else { return }  // built from the prepared tree instead
        let staged = IndexedDocset(name: version.name, version: nil, path: "/proc/self/fd/\(folder)")
        guard let snapshot = try? IndexSnapshot(of: staged, stateDirectory: stateDirectory) else {
            close(folder)
            return
        }
        let pending = Pending(folder: folder)
        lock.withLock {
            // An install started again from byte 0 does not publish the versions it staged before.
            for (_, earlier) in builds where earlier.source == nil { earlier.abandoned = true }
            builds[version.version] = pending
            lock.broadcast()
        }
        let state = stateDirectory
        running.enter()
        WorkerThread.start(name: "docsync-index-ahead", stackSize: 1 << 20) { [self, running] in
            defer {
                snapshot.remove()
                running.leave()
            }
            _ = try? DocsetIndex.prebuild(snapshot.docset, version: version.version, stateDirectory: state) {
                self.lock.withLock {
                    while pending.source == nil && !pending.abandoned { self.lock.wait() }
                    return pending.abandoned ? nil : pending.source
                }
            }
        }
    }
}
