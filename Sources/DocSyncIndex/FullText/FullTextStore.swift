import DocSyncSupport
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Where docsets' text indexes live, in docsync's state folder (never inside a docset), beside the derived name
/// indexes and pruned with them:
///
/// ```
/// <state>/fulltext/<key>.db         one SQLite FTS5 index per installed version (key: as `DerivedIndex.key`)
/// <state>/fulltext/<key>.building   locked (flock) while that index is being built
/// ```
/// An index is written under a dot-name and renamed into place, so a reader sees a complete index or none.
package enum FullTextStore {
    /// The state of one docset's text index.
    package enum State: Sendable, Equatable {
        /// Built: the database's path.
        case ready(String)
        /// Being built now (another thread or process holds its lock).
        case building
        /// Not built (turned off, installed before docsync built them, or its build failed).
        case missing
    }

    /// `<state>/fulltext`.
    package static func folder(stateDirectory: String) -> String { "\(stateDirectory)/fulltext" }

    /// The index file of `docset`.
    package static func path(of docset: IndexedDocset, stateDirectory: String) -> String {
        "\(folder(stateDirectory: stateDirectory))/\(DerivedIndex.key(for: docset)).db"
    }

    /// Whether `docset`'s text index is built, being built, or missing.
    package static func state(of docset: IndexedDocset, stateDirectory: String) -> State {
        let path = path(of: docset, stateDirectory: stateDirectory)
        var st = stat()
        if lstat(path, &st) == 0, st.st_mode & S_IFMT == S_IFREG { return .ready(path) }
        let lock = open(String(path.dropLast(3)) + ".building", O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard lock >= 0 else { return .missing }
        defer { close(lock) }
        if flock(lock, LOCK_SH | LOCK_NB) != 0, errno == EWOULDBLOCK { return .building }
        return lstat(path, &st) == 0 ? .ready(path) : .missing
    }

    /// The size of `docset`'s text index in bytes (nil when it has none).
    package static func size(of docset: IndexedDocset, stateDirectory: String) -> Int64? {
        var st = stat()
        guard lstat(path(of: docset, stateDirectory: stateDirectory), &st) == 0 else { return nil }
        return Int64(st.st_size)
    }

    /// Deletes the text indexes of docsets not in `docsets`, and leftovers of interrupted builds older than an
    /// hour (a lock file whose lock nobody holds).
    package static func removeUnused(stateDirectory: String, keeping docsets: [IndexedDocset]) {
        let folder = folder(stateDirectory: stateDirectory)
        let keep = Set(docsets.map(DerivedIndex.key(for:)))
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for entry in entries {
            let path = "\(folder)/\(entry)"
            if entry.hasPrefix(".") {
                let modified = (try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate]) as? Date
                guard let modified, Date().timeIntervalSince(modified) > 3600 else { continue }
                unlink(path)
                continue
            }
            let key: String
            if entry.hasSuffix(".db") {
                key = String(entry.dropLast(3))
            } else if entry.hasSuffix(".building") {
                key = String(entry.dropLast(9))
                guard !keep.contains(key) else { continue }
                let lock = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
                guard lock >= 0 else { continue }
                defer { close(lock) }
                if flock(lock, LOCK_EX | LOCK_NB) == 0 { unlink(path) }
                continue
            } else {
                continue
            }
            if !keep.contains(key) { unlink(path) }
        }
    }
}
