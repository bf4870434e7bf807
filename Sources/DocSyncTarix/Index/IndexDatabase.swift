import DocSyncSupport
import Foundation
import GRDB

/// Opens a tarix index read-only through a descriptor opened with `O_NOFOLLOW` (SQLite is handed
/// `/proc/self/fd/N`, so it reads exactly that inode, never a path a symlink could redirect).
struct IndexDatabase: Sendable {
    let queue: DatabaseQueue
    let fd: Int32

    init(path: String) throws(TarixError) {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else {
            throw .io(path, errno == ELOOP ? "is a symbolic link" : "cannot open: \(String(cString: strerror(errno)))")
        }
        try self.init(fd: fd, path: path)
    }

    /// Takes ownership of `fd` (closed on failure and by `close()`).
    init(fd: Int32, path: String) throws(TarixError) {
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else {
            Foundation.close(fd)
            throw .io(path, "not a regular file")
        }
        do {
            var configuration = Configuration()
            configuration.readonly = true
            queue = try DatabaseQueue(path: "/proc/self/fd/\(fd)", configuration: configuration)
            try queue.read { db in
                let columns = try Row.fetchAll(db, sql: "PRAGMA table_info(tarindex)").map {
                    ($0["name"] as String?) ?? ""
                }
                guard columns.contains("path"), columns.contains("hash") else {
                    throw TarixError.badIndex(path, "no tarindex(path, hash) table: not a tarix index")
                }
            }
        } catch let error as TarixError {
            Foundation.close(fd)
            throw error
        } catch {
            Foundation.close(fd)
            throw .badIndex(path, "not a readable SQLite database: \(error)")
        }
        self.fd = fd
    }

    func close() {
        try? queue.close()
        Foundation.close(fd)
    }
}
