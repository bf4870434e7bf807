/// The trigram postings of `names.bin` (walked by `SubstringWalk`).
extension NameTable {
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
        let keys = trigramKeys  // a local copy: no exclusivity check of the stored property at every probe
        var lo = 0
        var hi = keys.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if keys[mid] < key { lo = mid + 1 } else { hi = mid }
        }
        guard lo < keys.count, keys[lo] == key else { return nil }
        return Int(trigramStarts[lo])..<Int(trigramStarts[lo + 1])
    }
}
