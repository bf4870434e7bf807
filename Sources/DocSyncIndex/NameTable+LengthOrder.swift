/// The scans over names by rank (shortest first): the fuzzy and short-substring candidates are the names whose
/// folded character mask covers the query's, read from the in-memory `lengthMasks` 8 at a time.
extension NameTable {
    /// The ranks of the names of length `group` (0...255), or of 256 bytes and more (`lengthGroups`).
    func ranks(ofGroup group: Int) -> Range<Int> { lengthStarts[group]..<lengthStarts[group + 1] }

    /// The length of the name at `rank`, which is in `group`: the group itself below `lengthGroups` (no read).
    func length(rank: Int, group: Int) -> Int {
        group < Self.lengthGroups ? group : length(Int(order[rank]))
    }

    /// The sorted position of the name at `rank`.
    func position(rank: Int) -> Int { Int(order[rank]) }

    /// Calls `visit(rank)` for every rank in `range` whose folded mask covers `wanted`, in rank order (the masks
    /// read 8 at a time).
    func maskScan(_ wanted: UInt32, ranks range: Range<Int>, _ visit: (_ rank: Int) -> Void) {
        guard !range.isEmpty else { return }
        let splat = SIMD8<UInt32>(repeating: wanted)
        lengthMasks.withUnsafeBufferPointer { masks in
            let base = UnsafeRawPointer(masks.baseAddress!)
            var k = range.lowerBound
            while k + 8 <= range.upperBound {
                let block = base.loadUnaligned(fromByteOffset: 4 * k, as: SIMD8<UInt32>.self)
                let hit = (block & splat) .== splat
                if any(hit) {
                    for j in 0..<8 where hit[j] { visit(k + j) }
                }
                k += 8
            }
            while k < range.upperBound {
                if masks[k] & wanted == wanted { visit(k) }
                k += 1
            }
        }
    }

    /// The names of length group `group` (below `lengthGroups`), by rank and without separators (each `group`
    /// bytes), read with `pread` into `buffer` (its first bytes; grown when needed), or copied from the mapping if
    /// the read fails. Reading keeps the scanned names out of the resident set: nothing to drop afterwards.
    func readRankNames(group: Int, into buffer: inout [UInt8]) {
        readRankNames(group: group, 0..<(ranks(ofGroup: group).count), into: &buffer)
    }

    /// ``readRankNames(group:into:)`` for the names `names` of the group only (0: its first), into `buffer`'s start.
    func readRankNames(group: Int, _ names: Range<Int>, into buffer: inout [UInt8]) {
        let start = rankNameStarts[group] + names.lowerBound * group
        let bytes = names.count * group
        if buffer.count < bytes { buffer = Array(repeating: 0, count: max(bytes, 2 * buffer.count)) }
        guard bytes > 0 else { return }
        let read = buffer.withUnsafeMutableBytes {
            Self.readFully(fd, into: $0.baseAddress!, bytes, at: rankNamesOffset + start)
        }
        if !read {
            buffer.withUnsafeMutableBytes {
                $0.baseAddress!.copyMemory(from: rankNamesBase + start, byteCount: bytes)
            }
        }
    }

    /// Whether `needle` is a subsequence of `line` (its bytes in order, gaps allowed).
    static func isSubsequence(_ needle: UnsafeBufferPointer<UInt8>, of line: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !needle.isEmpty else { return true }
        var k = 0
        let wanted = needle.count
        for byte in line where byte == needle[k] {
            k += 1
            if k == wanted { return true }
        }
        return false
    }
}
