/// Substring candidates from the trigram postings of `names.bin`.
extension NameTable {
    /// Appends to `out` the rank of every name that can contain `query` of 3 bytes or more (the caller checks it),
    /// shortest first (ranks ascending).
    ///
    /// Only the names in the postings of every one of its trigrams can contain it, so the rarest trigram's postings
    /// are walked and each is looked up in the others' (galloping search: the work follows the rarest list, not the
    /// common ones). Postings hold ranks, so the candidates come shortest first.
    func substringCandidates(_ query: [UInt8], scratch: SearchScratch, into out: inout [UInt32]) {
        guard query.count >= 3, count > 0 else { return }
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
        if lists.count == 1 {
            out.append(contentsOf: scratch.lists[0].prefix(lists[0].count))
            return
        }
        // The (up to 3) lists' buffers held once for the whole walk: no retain, release or uniqueness check of the
        // scratch's arrays per candidate (a third of a substring query's time when taken per lookup).
        let first = scratch.lists[0], second = scratch.lists[1], third = lists.count > 2 ? scratch.lists[2] : []
        let ends = (lists[0].count, lists[1].count, lists.count > 2 ? lists[2].count : 0)
        first.withUnsafeBufferPointer { rarest in
            second.withUnsafeBufferPointer { b in
                third.withUnsafeBufferPointer { c in
                    var atB = 0
                    var atC = 0
                    for p in 0..<ends.0 {
                        let rank = rarest[p]
                        atB = Self.gallop(b.baseAddress!, from: atB, to: ends.1, rank)
                        guard atB < ends.1, b[atB] == rank else { continue }
                        if ends.2 > 0 {
                            atC = Self.gallop(c.baseAddress!, from: atC, to: ends.2, rank)
                            guard atC < ends.2, c[atC] == rank else { continue }
                        }
                        out.append(rank)
                    }
                }
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
