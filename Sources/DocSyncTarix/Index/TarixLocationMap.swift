import GRDB

/// An index's document locations held in memory, for a long-running reader (`docsync serve`): a sorted array of
/// 64-bit keys (a per-process seeded hash of the stored path, ASCII case folded as the index's `COLLATE NOCASE`
/// compares) beside packed `(offset, length)` values — 16 bytes per document, no strings, loaded once per store
/// with one scan of `tarindex`. It is a hint, never the authority: a key found here is read only if the record's
/// own header names the requested path (without case), and anything not in it (directories, rows whose location
/// does not parse, two paths with one key, offsets too large to pack) is looked up in the index as before.
///
/// It also keeps the documents' flush points in order (8 bytes more per document), so that a record's compressed
/// end is known — the next flush point — for a whole-buffer inflate (``end(after:)``).
struct TarixLocationMap: Sendable {
    private let keys: [UInt64]
    private let values: [UInt64]
    /// Every document's flush point (compressed offset), ascending, without repeats.
    private let flushPoints: [Int64]

    /// Offsets up to 2^40 (1 TiB) and lengths up to 2^24 - 1 blocks are packed; beyond, the row is left out.
    private static let lengthBits: UInt64 = 24
    private static let ambiguous = UInt64.max

    /// Documents in the map.
    var count: Int { keys.count }

    /// The map of `index`'s file rows, or nil when it has more than `maxEntries` rows (or cannot be read).
    init?(index: IndexDatabase, maxEntries: Int) {
        var pairs: [(key: UInt64, value: UInt64)] = []
        var tooMany = false
        do {
            try index.queue.read { db in
                let rows = try Int.fetchOne(db, sql: "SELECT count(*) FROM tarindex") ?? 0
                guard rows <= maxEntries else {
                    tooMany = true
                    return
                }
                pairs.reserveCapacity(rows)
                let cursor = try Row.fetchCursor(db, sql: "SELECT path, hash FROM tarindex")
                while let row = try cursor.next() {
                    guard let path: String = row[0], let hash: String = row[1],
                        let location = TarixLocation(hash: hash), let value = Self.pack(location)
                    else { continue }
                    pairs.append((Self.key(path), value))
                }
                tooMany = pairs.count > maxEntries
            }
        } catch {
            return nil
        }
        if tooMany { return nil }
        var offsets = pairs.map { Int64($0.value >> Self.lengthBits) }
        offsets.sort()
        var unique: [Int64] = []
        unique.reserveCapacity(offsets.count)
        for offset in offsets where unique.last != offset { unique.append(offset) }
        flushPoints = unique
        pairs.sort { $0.key < $1.key }
        var keys: [UInt64] = []
        var values: [UInt64] = []
        keys.reserveCapacity(pairs.count)
        values.reserveCapacity(pairs.count)
        for pair in pairs {
            if let last = keys.last, last == pair.key {
                values[values.count - 1] = Self.ambiguous  // two paths, one key: the index decides
                continue
            }
            keys.append(pair.key)
            values.append(pair.value)
        }
        self.keys = keys
        self.values = values
    }

    /// The location kept for `path` (the index's full path, `X.docset/Contents/...`), nil when the index must be
    /// asked.
    func location(of path: String) -> TarixLocation? {
        let key = Self.key(path)
        var low = 0
        var high = keys.count
        while low < high {
            let middle = (low + high) / 2
            if keys[middle] < key { low = middle + 1 } else { high = middle }
        }
        guard low < keys.count, keys[low] == key, values[low] != Self.ambiguous else { return nil }
        let value = values[low]
        return TarixLocation(
            block: 0, offset: Int64(value >> Self.lengthBits), length: Int64(value & ((1 << Self.lengthBits) - 1)))
    }

    /// The first document's flush point after `offset`: where the compressed data of the record at `offset` ends
    /// when no record without a location (a directory, a link) comes between them; nil after the last document.
    func end(after offset: Int64) -> Int64? {
        var low = 0
        var high = flushPoints.count
        while low < high {
            let middle = (low + high) / 2
            if flushPoints[middle] <= offset { low = middle + 1 } else { high = middle }
        }
        return low < flushPoints.count ? flushPoints[low] : nil
    }

    private static func pack(_ location: TarixLocation) -> UInt64? {
        guard location.offset < 1 << 40, location.length < 1 << lengthBits else { return nil }
        return UInt64(location.offset) << lengthBits | UInt64(location.length)
    }

    /// The key of `path`: ASCII letters folded to lower case (as SQLite's `NOCASE` does), hashed with the
    /// process's seeded hasher (so that request paths cannot be crafted to collide).
    static func key(_ path: String) -> UInt64 {
        var path = path
        return path.withUTF8 { bytes in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bytes.count) { folded in
                for (k, byte) in bytes.enumerated() {
                    folded[k] = byte &- 65 < 26 ? byte | 0x20 : byte
                }
                var hasher = Hasher()
                hasher.combine(bytes: UnsafeRawBufferPointer(folded))
                return UInt64(bitPattern: Int64(hasher.finalize()))
            }
        }
    }

    /// True when `a` and `b` are equal with ASCII letters folded (SQLite's `NOCASE`).
    static func equalFolded(_ a: [UInt8], _ b: String) -> Bool {
        var b = b
        return b.withUTF8 { other in
            guard other.count == a.count else { return false }
            for k in 0..<a.count {
                let x = a[k]
                let y = other[k]
                if x != y, (x &- 65 < 26 ? x | 0x20 : x) != (y &- 65 < 26 ? y | 0x20 : y) { return false }
            }
            return true
        }
    }
}
