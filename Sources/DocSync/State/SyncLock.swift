import DocSyncSupport
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One sync at a time per state directory: an exclusive `flock` on `<state>/sync.lock`. The kernel drops it when
/// the process dies, so a crash never leaves a stale lock.
public final class SyncLock: Sendable {
    public let path: String
    private let fd: Int32

    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// Another process holds the lock (its pid when it wrote one).
        case busy(path: String, holder: String?)
        case system(SystemError)

        public var description: String {
            switch self {
            case .busy(let path, let holder):
                "another docsync sync is running (lock \(path)\(holder.map { ", pid \($0)" } ?? "")); "
                    + "use --wait to queue behind it"
            case .system(let error): "\(error)"
            }
        }
    }

    /// Takes the lock; with `wait`, blocks (off the cooperative pool) until the holder finishes.
    public static func acquire(stateDirectory: String, wait: Bool) async throws(Failure) -> SyncLock {
        do {
            try FileManager.default.createDirectory(atPath: stateDirectory, withIntermediateDirectories: true)
        } catch {
            // FileManager's error carries no errno on Linux: repeat the last mkdir to report the real cause.
            let code = mkdir(stateDirectory, 0o755) == 0 ? EIO : errno
            throw .system(SystemError("mkdir", path: stateDirectory, code: code))
        }
        let path = "\(stateDirectory)/sync.lock"
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .system(SystemError("open", path: path)) }
        if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            guard code == EWOULDBLOCK, wait else {
                let holder = try? String(contentsOfFile: path, encoding: .utf8).trimmingCharacters(
                    in: .whitespacesAndNewlines)
                close(fd)
                if code == EWOULDBLOCK { throw .busy(path: path, holder: holder.flatMap { $0.isEmpty ? nil : $0 }) }
                throw .system(SystemError("flock", path: path, code: code))
            }
            let result = await withCheckedContinuation { (continuation: CheckedContinuation<Int32, Never>) in
                Thread { continuation.resume(returning: flock(fd, LOCK_EX) == 0 ? 0 : errno) }.start()
            }
            if result != 0 {
                close(fd)
                throw .system(SystemError("flock", path: path, code: result))
            }
        }
        let pid = "\(getpid())\n"
        _ = ftruncate(fd, 0)
        _ = pid.withCString { pwrite(fd, $0, strlen($0), 0) }
        return SyncLock(path: path, fd: fd)
    }

    private init(path: String, fd: Int32) {
        self.path = path
        self.fd = fd
    }

    deinit {
        _ = ftruncate(fd, 0)
        close(fd)  // releases the flock
    }
}
