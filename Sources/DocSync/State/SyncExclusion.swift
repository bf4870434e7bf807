internal import DocSyncSupport
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One sync at a time per state directory: an exclusive `flock` on `<state>/sync.lock`. The kernel drops it when
/// the process dies, so a crash never leaves a stale lock.
package final class SyncExclusion: Sendable {
    package let path: String
    private let fd: Int32

    /// The error `acquire` throws (kept under its old name for callers).
    package typealias Failure = SyncExclusionError

    /// Takes the lock; with `wait`, blocks (off the cooperative pool) until the holder finishes.
    package static func acquire(stateDirectory: String, wait: Bool) async throws(Failure) -> SyncExclusion {
        let path = "\(stateDirectory)/sync.lock"
        let fd: Int32
        let state: SafeDirectory
        do throws(SystemError) {
            // The lock is opened with O_NOFOLLOW: a symlink planted at sync.lock is refused, never truncated.
            state = try SafeDirectory.open(stateDirectory, create: true)
            fd = try state.openFile("sync.lock", O_RDWR | O_CREAT)
        } catch {
            throw .unavailable(path: path, detail: "\(error)")
        }
        if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            guard code == EWOULDBLOCK, wait else {
                // The holder writes its pid, then when it took the lock: the pid is the first line.
                let holder = (try? state.readFile("sync.lock", limit: 64)).flatMap { $0 }.map {
                    String(decoding: $0, as: UTF8.self).split(separator: "\n").first
                        .map { String($0).trimmingCharacters(in: .whitespaces) } ?? ""
                }
                close(fd)
                if code == EWOULDBLOCK { throw .busy(path: path, holder: holder.flatMap { $0.isEmpty ? nil : $0 }) }
                throw .unavailable(path: path, detail: "\(SystemError("flock", path: path, code: code))")
            }
            let result = await WorkerThread.run(name: "docsync-lock") { flock(fd, LOCK_EX) == 0 ? 0 : errno }
            if result != 0 {
                close(fd)
                throw .unavailable(path: path, detail: "\(SystemError("flock", path: path, code: result))")
            }
        }
        let pid = holderText()
        _ = ftruncate(fd, 0)
        _ = pid.withCString { pwrite(fd, $0, strlen($0), 0) }
        return SyncExclusion(path: path, fd: fd)
    }

    private init(path: String, fd: Int32) {
        self.path = path
        self.fd = fd
    }

    deinit {
        _ = ftruncate(fd, 0)
        // Unlocked explicitly, not by the close: a flock belongs to the open file description, and a child that
        // another thread of this process is spawning holds a copy of every descriptor until its exec (O_CLOEXEC
        // closes it only then). Closed alone, the lock would stay held that long, and this process's next sync would
        // be refused as "busy" by its own finished run (a parallel test suite spawns processes all the time).
        _ = flock(fd, LOCK_UN)
        close(fd)
    }
}
