import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A small tmpfs mounted on a fresh temporary folder: a real file system that fills up (ENOSPC) after `megabytes`.
/// Needs root (CAP_SYS_ADMIN); `unavailableReason` says why it cannot be used here. `unmount()` (idempotent) also
/// runs when released.
package final class Tmpfs: Sendable {
    package let directory: TemporaryDirectory
    package var path: String { directory.path }

    /// Nil when tmpfs can be mounted here; else why not (tests print it when they skip).
    package static let unavailableReason: String? = {
        guard getuid() == 0 else { return "not running as root (mounting a tmpfs needs root)" }
        do {
            try Tmpfs(megabytes: 1).unmount()
            return nil
        } catch {
            return "cannot mount a tmpfs: \(error)"
        }
    }()

    /// True when tmpfs can be mounted; prints why not otherwise (once per caller), so a skip is never silent.
    package static func isAvailable(for test: String) -> Bool {
        guard let reason = unavailableReason else { return true }
        print("SKIPPED \(test): \(reason)")
        return false
    }

    package init(megabytes: Int) throws {
        directory = try TemporaryDirectory("docsync-tmpfs")
        let result = try Tool.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(megabytes)m,mode=0755", "tmpfs", path])
        guard result.status == 0 else {
            directory.remove()
            throw TestServerError("mount tmpfs: \(result.standardError)")
        }
    }

    deinit { unmount() }

    /// Unmounts (lazily if something still has it open) and removes the folder.
    package func unmount() {
        if isMounted {
            if Glibc.umount(path) != 0 { _ = umount2(path, Int32(MNT_DETACH)) }
        }
        directory.remove()
    }

    private var isMounted: Bool {
        let mounts = (try? String(contentsOfFile: "/proc/self/mounts", encoding: .utf8)) ?? ""
        return mounts.split(separator: "\n").contains { $0.split(separator: " ").dropFirst().first == Substring(path) }
    }
}
