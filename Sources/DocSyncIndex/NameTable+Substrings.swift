/// Substring search over the trigram postings of `names.bin`.
extension NameTable {
    /// Calls `visit` once for every entry containing `query` past its first byte (substring, not prefix), of those
    /// that `keep` (asked first, cheaply) accepts, in sorted order.
    ///
    /// A query of 3 bytes or more: only the names in the postings of every one of its trigrams can contain it, so
    /// the rarest trigram's postings are walked and each is looked up in the others' (galloping search: the work
    /// follows the rarest list, not the common ones) before its name is checked. Shorter queries: the names whose
    /// character mask covers the query's.
    func substrings(
        _ query: [UInt8], scratch: SearchScratch, keep: (Int) -> Bool = { _ in true }, _ visit: (Int) -> Void
    ) {
        guard !query.isEmpty, count > 0 else { return }
        query.withUnsafeBufferPointer { needle in
            func check(_ i: Int) {
                if keep(i), let at = Self.find(needle, in: name(i)), at > 0 { visit(i) }
            }
            guard query.count >= 3 else {
                let wanted = Self.fold(Self.mask(query))
                foldedMasks.withUnsafeBufferPointer { masks in
                    for i in 0..<count where masks[i] & wanted == wanted { check(i) }
                }
                return
            }
            // A trigram no name has means no match at all.
            var lists: [Range<Int>] = []
            var seen = Set<UInt32>()
            for k in 0...(query.count - 3) {
                let key = Self.trigram(query[k], query[k + 1], query[k + 2])
                guard seen.insert(key).inserted else { continue }
                guard let list = postings(of: key) else { return }
                lists.append(list)
            }
            // The rarest few are enough to cut the candidates down; walking the common lists too would cost more
            // (pages touched) than the name checks they save.
            lists.sort { $0.count < $1.count }
            if lists.count > 3 { lists.removeLast(lists.count - 3) }
            // Each list read into its own reused buffer (no page of the mapping touched).
            while scratch.lists.count < lists.count { scratch.lists.append([]) }
            for (k, list) in lists.enumerated() { readPostings(list, into: &scratch.lists[k]) }
            let rarest = scratch.lists[0]
            var cursors = Array(repeating: 0, count: lists.count)
            candidates: for p in 0..<lists[0].count {
                let position = rarest[p]
                for k in 1..<lists.count {
                    let end = lists[k].count
                    cursors[k] = scratch.lists[k].withUnsafeBufferPointer {
                        Self.gallop($0.baseAddress!, from: cursors[k], to: end, position)
                    }
                    guard cursors[k] < end, scratch.lists[k][cursors[k]] == position else { continue candidates }
                }
                check(Int(position))
            }
        }
    }

    /// The first index in `from..<end` of the sorted `values` whose value is `target` or more (`end` if none):
    /// exponential steps, then a binary search.
    static func gallop(_ values: UnsafePointer<UInt32>, from: Int, to end: Int, _ target: UInt32) -> Int {
        var lo = from
        var step = 1
        var hi = from
        while hi < end, values[hi] < target {
            lo = hi + 1
            hi = min(end, hi + step)
            step *= 2
        }
        while lo < hi {
            let mid = (lo + hi) / 2
            if values[mid] < target { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// The posting range of `key`; nil when no name contains it.
    func postings(of key: UInt32) -> Range<Int>? {
        var lo = 0
        var hi = trigramKeys.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if trigramKeys[mid] < key { lo = mid + 1 } else { hi = mid }
        }
        guard lo < trigramKeys.count, trigramKeys[lo] == key else { return nil }
        return Int(trigramStarts[lo])..<Int(trigramStarts[lo + 1])
    }
}
