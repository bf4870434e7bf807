/// The substring candidates of several docsets' names, produced lazily a length group at a time: for each docset,
/// the ranks of the names that hold the query's (up to 3) rarest trigrams, from their postings intersected.
///
/// Postings hold ranks (shortest names first), so the candidates of a length group are the next run of each list:
/// the walk reads each list with `pread` in chunks, only as far as the length groups the ranking still visits. A
/// search that holds its best `limit` after the short names reads a few KiB per docset, not every posting of its
/// trigrams (megabytes over ten million entries); the buffers are `slot` values per list, whatever the list's length.
///
/// Only the names in the postings of every one of the query's trigrams can contain it, so the rarest list is walked
/// and each of its ranks looked up in the others' (galloping search: the work follows the rarest list).
final class SubstringWalk {
    /// Values buffered per list (4 KiB); the first read of a longer list takes `firstRead` of them.
    static let slot = 1024
    static let firstRead = 128
    private let tables: [NameTable]
    /// Per docset: how many lists (up to 3; 0 when some trigram of the query is in none of its names, or its lists
    /// are exhausted).
    private let lists: UnsafeMutablePointer<Int>
    /// Per list `3 * docset + j` (`j` 0 the rarest): the postings still to read (indexes in the postings area), and
    /// the buffered values `buffer[slot * list + at ..< slot * list + filled]`. (Allocated once like `buffer`, not
    /// arrays: the walk's loops read them at every posting, and a stored array is checked for exclusive access at
    /// each read — a tenth of a common substring's search.)
    private let next: UnsafeMutablePointer<Int>
    private let end: UnsafeMutablePointer<Int>
    private let at: UnsafeMutablePointer<Int>
    private let filled: UnsafeMutablePointer<Int>
    private let buffer: UnsafeMutablePointer<UInt32>

    /// The walk of `query` (3 bytes or more, lowercased) over `tables`; reads no posting yet.
    init(_ query: [UInt8], tables: [NameTable]) {
        self.tables = tables
        var keys: [UInt32] = []
        if query.count >= 3 {
            for k in 0...(query.count - 3) {
                let key = NameTable.trigram(query[k], query[k + 1], query[k + 2])
                if !keys.contains(key) { keys.append(key) }
            }
        }
        func zeros(_ n: Int) -> UnsafeMutablePointer<Int> {
            let values = UnsafeMutablePointer<Int>.allocate(capacity: max(1, n))
            values.initialize(repeating: 0, count: max(1, n))
            return values
        }
        lists = zeros(tables.count)
        next = zeros(3 * tables.count)
        end = zeros(3 * tables.count)
        at = zeros(3 * tables.count)
        filled = zeros(3 * tables.count)
        buffer = .allocate(capacity: max(1, 3 * tables.count * Self.slot))
        for (d, table) in tables.enumerated() where table.count > 0 && !keys.isEmpty {
            var ranges: [Range<Int>] = []
            for key in keys {
                guard let range = table.postings(of: key) else {
                    ranges = []
                    break
                }
                ranges.append(range)
            }
            // The rarest few are enough to cut the candidates down; walking the common lists too would cost more
            // (postings read) than the name checks they save.
            ranges.sort { $0.count < $1.count }
            for (j, range) in ranges.prefix(3).enumerated() {
                next[3 * d + j] = range.lowerBound
                end[3 * d + j] = range.upperBound
            }
            lists[d] = min(3, ranges.count)
        }
    }

    deinit {
        for values in [lists, next, end, at, filled] { values.deallocate() }
        buffer.deallocate()
    }

    /// Appends to `out` the ranks in `group` of docset `d`'s candidates, ascending. Successive calls for one docset
    /// must ask for ascending groups (ranks below `group` not yet walked are skipped).
    func candidates(_ d: Int, in group: Range<Int>, into out: inout [Int]) {
        let n = lists[d]
        guard n > 0 else { return }
        let rarest = 3 * d
        while true {
            if at[rarest] == filled[rarest], !refill(rarest) {
                lists[d] = 0
                return
            }
            let rank = Int(buffer[Self.slot * rarest + at[rarest]])
            if rank >= group.upperBound { return }
            at[rarest] += 1
            if rank < group.lowerBound { continue }
            if n > 1 {
                guard let found = seek(rarest + 1, UInt32(rank)) else {
                    lists[d] = 0
                    return
                }
                if !found { continue }
            }
            if n > 2 {
                guard let found = seek(rarest + 2, UInt32(rank)) else {
                    lists[d] = 0
                    return
                }
                if !found { continue }
            }
            out.append(rank)
        }
    }

    /// Advances list `s` to its first value not below `target`: whether it is `target`; nil when the list has no
    /// such value (then no later rank can be in it either).
    private func seek(_ s: Int, _ target: UInt32) -> Bool? {
        let base = buffer + Self.slot * s
        while true {
            if at[s] == filled[s], !refill(s) { return nil }
            if base[filled[s] - 1] < target {
                at[s] = filled[s]
                continue
            }
            at[s] = NameTable.gallop(base, from: at[s], to: filled[s], target)
            return base[at[s]] == target
        }
    }

    /// Reads the next chunk of list `s` into its buffer; false when the list is exhausted.
    private func refill(_ s: Int) -> Bool {
        // A list that fits the buffer is read whole at once (one read instead of two: 4 KiB cost about what 512
        // bytes do); a longer one starts with `firstRead` values, in case the search stops at the short names.
        let first = at[s] == 0 && filled[s] == 0 && end[s] - next[s] > Self.slot
        let n = min(end[s] - next[s], first ? Self.firstRead : Self.slot)
        guard n > 0 else { return false }
        let table = tables[s / 3]
        let base = buffer + Self.slot * s
        table.read(table.postingsOffset + 4 * next[s], 4 * n, into: UnsafeMutableRawPointer(base))
        #if _endian(big)
            for k in 0..<n { base[k] = UInt32(littleEndian: base[k]) }
        #endif
        next[s] += n
        at[s] = 0
        filled[s] = n
        return true
    }
}
