internal import DocSyncSupport
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension SyncExclusion {
    /// The sync holding the lock: its pid and since when (both written into `sync.lock` by the holder).
    public struct Holder: Sendable, Equatable {
        public var pid: Int32
        public var since: Date?
    }

    /// The running sync, if any: the pid in `<state>/sync.lock` (the holder truncates it when done) that is still
    /// a live process. Reads only; never takes the lock, so it cannot make a starting sync fail.
    public static func holder(stateDirectory: String) -> Holder? {
        guard let bytes = (try? RegularFile.read(path: "\(stateDirectory)/sync.lock", limit: 4096)).flatMap({ $0 })
        else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        let lines = text.split(separator: "\n")
        guard let first = lines.first, let pid = Int32(first.trimmingCharacters(in: .whitespaces)), pid > 0 else {
            return nil
        }
        guard kill(pid, 0) == 0 || errno == EPERM else { return nil }
        let since = lines.dropFirst().first.flatMap { ISO8601DateFormatter().date(from: String($0)) }
        return Holder(pid: pid, since: since)
    }

    /// What the holder writes into the lock file: its pid, then when it took the lock.
    static func holderText(pid: Int32 = getpid(), since: Date = Date()) -> String {
        "\(pid)\n\(ISO8601DateFormatter().string(from: since))\n"
    }
}
