import DocSync
import NIOCore
import Synchronization

/// What the event-loop fast path remembers of a warm page of an extracted version folder, by its request target
/// (`/d/NAME@ID/page`, exactly as sent, no query): the kept folder it lies in, the file's path beneath it, and the
/// answer's head rendered up to `Content-Length` (status line, `ETag`, `Cache-Control`, `Accept-Ranges`,
/// `Content-Security-Policy`, `Referrer-Policy`, `Content-Type`: none depends on the bytes or on the time).
///
/// A version folder never changes, so an entry made from one full answer (``Routes/warmHead(_:)``, every check of
/// the page route passed) is that page's answer for as long as the folder exists: a repeated `GET` without
/// conditional or range fields costs the folder's existence check, the contained open (`openat2` with
/// `RESOLVE_BENEATH | RESOLVE_CACHED`, the kernel's containment check, every time), the read and one buffer —
/// no path parsing, no header building. Anything else, or anything that fails (folder pruned, page gone, bytes not
/// cached), takes the full route.
///
/// Bounded: at most `capacity` entries (about 0.7 KiB each); when full, all are dropped and the table refills
/// from the full route. Thread-safe.
final class PageHeads: Sendable {
    struct Entry: Sendable {
        /// The kept version folder (its descriptor stays open while the entry exists).
        let folder: KeptFolder
        /// The page beneath the folder (`Contents/Resources/Documents/<page>`), a canonical path.
        let file: String
        /// `HTTP/1.1 200 OK` and the page's fields, each line ending in CRLF, without `Content-Length`.
        let head: ByteBuffer
    }

    /// The most entries kept.
    let capacity: Int
    private let entries = Mutex<[String: Entry]>([:])

    init(capacity: Int = 4096) {
        self.capacity = max(1, capacity)
    }

    /// The entry for a request target, if any.
    func get(_ target: String) -> Entry? {
        entries.withLock { $0[target] }
    }

    /// Keeps `entry` for `target` (all entries are dropped first when the table is full).
    func put(_ target: String, _ entry: Entry) {
        entries.withLock { entries in
            if entries.count >= capacity, entries[target] == nil { entries.removeAll(keepingCapacity: true) }
            entries[target] = entry
        }
    }

    /// Forgets `target` (its folder was pruned).
    func remove(_ target: String) {
        _ = entries.withLock { $0.removeValue(forKey: target) }
    }

    /// The entries kept now (for tests).
    var count: Int { entries.withLock { $0.count } }
}
