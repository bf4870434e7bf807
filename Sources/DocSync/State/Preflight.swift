internal import DocSyncSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Checks, before any network work, that `root`, `staging` and `state` exist (or creates them), are directories,
/// and are writable. Every problem names its config key and path.
public enum Preflight {
    /// Everything wrong with the configured folders (at least one problem).
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// Each unusable folder (at least one).
        public var problems: [Problem]

        public var description: String { problems.map(\.description).joined(separator: "\n") }
    }

    /// One folder that cannot be used: `root = "/srv/x": not a directory`.
    public struct Problem: Sendable, Equatable, CustomStringConvertible {
        /// The config key (`root`, `staging`, `state`).
        public var key: String
        /// The folder as configured.
        public var path: String
        /// What is wrong with it (`not a directory`, `not writable (…)`, …).
        public var problem: String

        public var description: String { "\(key) = \"\(path)\": \(problem)" }
    }

    /// Creates missing folders (0755, never through a symlink) and checks them; throws every problem at once.
    public static func check(_ configuration: DocSyncConfiguration) throws(Failure) {
        var problems: [Problem] = []
        let folders = [("root", configuration.root), ("staging", configuration.staging), ("state", configuration.state)]
        for (key, path) in folders {
            switch usable(path) {
            case .success: break
            case .failure(let reason): problems.append(Problem(key: key, path: path, problem: reason.text))
            }
        }
        // No same-filesystem rule for staging and root: nothing is renamed between them (an install extracts from
        // the staged archive into <root>/.docsync/staging, on root's filesystem), and DiskFullTests runs staging on
        // a tmpfs of its own.
        if let textfile = configuration.metricsTextFile {
            let folder = textfile.lastIndex(of: "/").map { String(textfile[..<$0]) }.flatMap { $0.isEmpty ? "/" : $0 }
            var info = stat()
            if let folder, stat(folder, &info) != 0 || (info.st_mode & S_IFMT) != S_IFDIR || access(folder, W_OK) != 0 {
                problems.append(
                    Problem(key: "metrics.textfile", path: textfile, problem: "its folder is not a writable directory"))
            }
        }
        if !problems.isEmpty { throw Failure(problems: problems) }
    }

    struct Reason: Error { let text: String }

    /// The folder's device, or why it cannot be used.
    static func usable(_ path: String) -> Result<dev_t, Reason> {
        var info = stat()
        if stat(path, &info) != 0 {
            guard errno == ENOENT else { return .failure(Reason(text: describe(errno))) }
            do {
                try DirectoryMaker.ensure(path)
            } catch {
                let what = error.path == path ? "" : " (at \(error.path))"
                return .failure(Reason(text: "cannot be created: \(describe(error.code))\(what)"))
            }
            guard stat(path, &info) == 0 else { return .failure(Reason(text: describe(errno))) }
        }
        guard (info.st_mode & S_IFMT) == S_IFDIR else { return .failure(Reason(text: "not a directory")) }
        guard access(path, W_OK | X_OK) == 0 else { return .failure(Reason(text: "not writable (\(describe(errno)))")) }
        return .success(info.st_dev)
    }

    static func describe(_ code: Int32) -> String {
        switch code {
        case ENOTDIR: "not a directory (a part of the path is a file)"
        default: String(cString: strerror(code)).lowercased()
        }
    }
}
