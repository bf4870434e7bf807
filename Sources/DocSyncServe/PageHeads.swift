import DocSync
import NIOCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// What the event-loop fast path remembers of a warm pinned page, by its request target (`/d/NAME@ID/page`, exactly
/// as sent, no query): its version folder, where its bytes are — for an extracted folder the page's file, open
/// (opened beneath the kept folder with every check of the page route: `openat2` with `RESOLVE_BENEATH`, a regular
/// file within the size limit), for a tarix store its ``PageCache`` key — and the answer's head rendered up to
/// `Content-Length` (status line, `ETag`, `Cache-Control`, `Accept-Ranges`, `Content-Security-Policy`,
/// `Referrer-Policy`, `Content-Type`: none depends on the time).
///
/// A version folder never changes, so an entry made from one full answer (``Routes/warmHead(_:)``) is that page's
/// answer for as long as the folder exists: a repeated `GET` without conditional or range fields costs the folder's
/// existence check (`fstatat` of its name in the versions folder: a pruned version is redirected at once) and the
/// sending: `sendfile` from the open file after the head for a page of 8 KiB or more that the page cache holds
/// (``ChannelSocket``), else one `pread` of it into the buffer after the head (`RWF_NOWAIT`: bytes not cached take
/// the full route), or a page cache lookup (evicted: inflated again there when that needs no waiting) — no path parsing, no header
/// building, no `openat2`/`fstat`/`close`, as nginx's `open_file_cache` keeps descriptors. Anything else, or
/// anything that fails (folder pruned, bytes not cached, the file shorter than when opened), takes the full route.
///
/// Bounded: at most `capacity` entries, each holding at most one descriptor (about 0.7 KiB of memory); when full,
/// all are dropped and the table refills from the full route. A folder found gone drops every entry of it, and
/// folders are checked every ``sweepInterval`` when entries are added, so the files of a pruned version are not
/// held open (keeping their disk space) for long. Thread-safe.
final class PageHeads: Sendable {
    /// A page's file, open for reading; closed when the last entry using it goes.
    final class OpenFile: Sendable {
        let descriptor: Int32
        /// Its size when opened (a version's files never change; one found shorter takes the full route).
        let size: Int

        init(descriptor: Int32, size: Int) {
            self.descriptor = descriptor
            self.size = size
        }

        deinit { close(descriptor) }
    }

    /// Where a remembered page's bytes are.
    enum Body: Sendable {
        /// Its file in an extracted version folder, open.
        case file(OpenFile)
        /// The ``PageCache`` entry of a tarix page, by its key; evicted, it is inflated again from `page` of
        /// `docset` when that needs no waiting (``PageReader/openIfCached(_:of:as:)``), else the full route's.
        case cached(String, page: String, docset: InstalledDocset)
    }

    struct Entry: Sendable {
        /// The version folder's path (`<root>/.docsync/versions/NAME@ID`), checked on every answer.
        let folder: String
        /// Its name in `<root>/.docsync/versions` (`NAME@ID`), checked there through an open descriptor of that
        /// folder (``PageFastPath``); nil: its whole path is checked.
        var name: String? = nil
        /// The page's bytes.
        let body: Body
        /// `HTTP/1.1 200 OK` and the page's fields, each line ending in CRLF, without `Content-Length`.
        let head: ByteBuffer
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var lastSweep = ContinuousClock.now
    }

    /// The most entries (and open descriptors) kept.
    let capacity: Int
    /// How often adding an entry also checks that the folders of the kept entries still exist.
    static let sweepInterval = Duration.seconds(10)
    private let state = Mutex(State())

    init(capacity: Int = 4096) {
        self.capacity = max(1, capacity)
    }

    /// The entry for a request target, if any.
    func get(_ target: String) -> Entry? {
        state.withLock { $0.entries[target] }
    }

    /// Keeps `entry` for `target` (all entries are dropped first when the table is full).
    func put(_ target: String, _ entry: Entry) {
        let (dropped, folders) = state.withLock { state -> ([String: Entry], Set<String>?) in
            var dropped: [String: Entry] = [:]
            if state.entries.count >= capacity, state.entries[target] == nil {
                swap(&dropped, &state.entries)
                state.entries.reserveCapacity(dropped.count)
            }
            state.entries[target] = entry
            let now = ContinuousClock.now
            guard now - state.lastSweep >= Self.sweepInterval else { return (dropped, nil) }
            state.lastSweep = now
            return (dropped, Set(state.entries.values.lazy.map(\.folder)))
        }
        withExtendedLifetime(dropped) {}  // their descriptors closed here, outside the lock
        for folder in folders ?? [] where !Routes.isDirectory(folder) { removeFolder(folder) }
    }

    /// Forgets every entry of the version folder at `path` (pruned), closing their files.
    func removeFolder(_ path: String) {
        let dropped = state.withLock { state -> [Entry] in
            let gone = state.entries.filter { $0.value.folder == path }
            for key in gone.keys { state.entries[key] = nil }
            return Array(gone.values)
        }
        withExtendedLifetime(dropped) {}
    }

    /// The entries kept now (for tests).
    var count: Int { state.withLock { $0.entries.count } }
}
