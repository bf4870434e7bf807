/// The scans over names by rank (shortest first): the fuzzy and short-substring candidates are the names whose
/// scan mask covers the query's (`MaskWalk`).
extension NameTable {
    /// The 64-bit mask the scans compare (`lengthMasks` in the file): the low half is `fold(mask(bytes))`, which characters
    /// occur; the high half `repeats(bytes)`, which occur at least twice. A name contains `query` as a substring or a
    /// subsequence only if it holds each of the query's bytes at least as often, so only if its scan mask covers the
    /// query's: the scan never drops a match, and passes far fewer names than the presence half alone (a query with
    /// a repeated letter, like most whole names, rules out every name with that letter once).
    static func scanMask(_ bytes: some Sequence<UInt8>) -> UInt64 {
        var seen: UInt32 = 0
        var twice: UInt32 = 0
        for b in bytes {
            let bit = UInt32(1) << foldedBit(b)
            twice |= seen & bit
            seen |= bit
        }
        return UInt64(twice) << 32 | UInt64(seen)
    }

    /// The bit of byte `b` in a folded mask (`fold`): a–z 0–25, any digit 26, the other ASCII bytes in four groups
    /// 27–30 (as `mask` puts them on bits 36–62, seven to a group), non-ASCII 31.
    @inline(__always) static func foldedBit(_ b: UInt8) -> UInt32 {
        switch b {
        case 0x61...0x7A: UInt32(b - 0x61)
        case 0x30...0x39: 26
        case 0x80...: 31
        default: 27 + UInt32(b % 27) / 7
        }
    }

    /// The ranks of the names of length `group` (0...255), or of 256 bytes and more (`lengthGroups`).
    func ranks(ofGroup group: Int) -> Range<Int> { lengthStarts[group]..<lengthStarts[group + 1] }

    /// The length of the name at `rank`, which is in `group`: the group itself below `lengthGroups` (no read).
    func length(rank: Int, group: Int) -> Int {
        group < Self.lengthGroups ? group : length(Int(order[rank]))
    }

    /// The sorted position of the name at `rank`.
    func position(rank: Int) -> Int { Int(order[rank]) }

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

    /// The names of length group `group` (below `lengthGroups`) in the mapping, by rank (each `group` bytes, the
    /// group's first rank first): what the scans check in place when `keepsNames`.
    func mappedRankNames(group: Int) -> UnsafePointer<UInt8> {
        (rankNamesBase + rankNameStarts[group]).assumingMemoryBound(to: UInt8.self)
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
