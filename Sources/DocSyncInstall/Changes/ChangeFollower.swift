import DocSyncSupport
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Follows a root's change log: reads what is new, then sleeps in `poll(2)` on inotify until the log or a link in
/// the root changes (no polling loop), until `stop()`. Watches the root (links flip there: a pending last record
/// becomes settled), `.docsync` and `.docsync/changes` (records appended, the log rewritten by retention), each
/// folder opened without following a link and watched through its descriptor.
package final class ChangeFollower: Sendable {
    private let reader: ChangeLogReader
    private let inotify: Int32
    private let stopPipe: (read: Int32, write: Int32)
    private let stopped = Atomic<Bool>(false)

    package init(root: String) throws(ChangeReadError) {
        reader = ChangeLogReader(root: root)
        inotify = inotify_init1(Int32(IN_CLOEXEC))
        guard inotify >= 0 else { throw .unreadable("\(SystemError("inotify_init1", path: root))") }
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else {
            close(inotify)
            throw .unreadable("\(SystemError("pipe2", path: root))")
        }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        stopPipe = (fds[0], fds[1])
    }

    deinit {
        close(inotify)
        close(stopPipe.read)
        close(stopPipe.write)
    }

    /// Wakes `run` and makes it return (from any thread).
    package func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        var byte: UInt8 = 1
        _ = write(stopPipe.write, &byte, 1)
    }

    /// Delivers every settled record after `cursor`, batch by batch with the log's epoch, until `stop()` or
    /// `deliver` returns false.
    /// Blocks the calling thread.
    package func run(since cursor: ChangeCursor?, deliver: ([ChangeRecord], String) -> Bool)
        throws(ChangeReadError) {
        var cursor = cursor
        var watched = Set<String>()
        while !stopped.load(ordering: .acquiring) {
            watch(&watched)
            let batch = try reader.read(since: cursor)
            if !batch.records.isEmpty, !deliver(batch.records, batch.epoch ?? "") { return }
            if let next = batch.cursor { cursor = next }
            guard waitForEvent() else { return }
        }
    }

    /// Adds the watches not in place yet (a folder made since: `.docsync` and its `changes` appear with the first
    /// install).
    private func watch(_ watched: inout Set<String>) {
        guard let root = try? SafeDirectory.open(reader.root) else { return }
        let linkEvents = UInt32(IN_CREATE | IN_MOVED_TO | IN_DELETE | IN_MOVED_FROM)
        var folders: [(String, SafeDirectory, UInt32)] = [("root", root, linkEvents)]
        if let state = try? root.existingDirectory(VersionStore.stateName) {
            folders.append(("state", state, UInt32(IN_CREATE | IN_MOVED_TO)))
            if let changes = try? state.existingDirectory(ChangeLogFile.folderName) {
                folders.append(
                    ("changes", changes, UInt32(IN_MODIFY | IN_CREATE | IN_MOVED_TO | IN_CLOSE_WRITE)))
            }
        }
        for (name, folder, mask) in folders where !watched.contains(name) {
            // Through the open descriptor: the folder checked to be no link is the one watched.
            if inotify_add_watch(inotify, "/proc/self/fd/\(folder.fd)", mask | UInt32(IN_ONLYDIR)) >= 0 {
                watched.insert(name)
            }
        }
    }

    /// Sleeps until an inotify event (drained) or `stop()`; false when stopped.
    private func waitForEvent() -> Bool {
        var fds = [pollfd(fd: inotify, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: stopPipe.read, events: Int16(POLLIN), revents: 0)]
        while true {
            let n = poll(&fds, 2, -1)
            if n < 0 && errno == EINTR { continue }
            if n < 0 || fds[1].revents != 0 || stopped.load(ordering: .acquiring) { return false }
            break
        }
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        let flags = fcntl(inotify, F_GETFL)
        _ = fcntl(inotify, F_SETFL, flags | O_NONBLOCK)
        while buffer.withUnsafeMutableBytes({ read(inotify, $0.baseAddress, $0.count) }) > 0 {}
        return true
    }
}
