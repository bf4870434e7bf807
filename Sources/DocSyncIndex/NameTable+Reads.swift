#if canImport(Glibc)
    import Glibc
#endif

/// Buffers one search reuses for every docset (`DocsetIndex` keeps a few between searches), so reading postings
/// allocates and faults in nothing per query.
final class SearchScratch {
    /// One length group's names (`NameTable.readRankNames`).
    var names: [UInt8] = []
    /// A run of sorted names and their offsets (`NameTable.forEachPrefixMatch`).
    var runOffsets: [UInt32] = []
    var runBytes: [UInt8] = []
}

/// Postings, scan masks and names read with `pread` rather than through the mapping: pages read this way never enter the process's
/// resident set (they stay in the shared page cache), so they need not be dropped after a query and faulted back in
/// by the next — the cost that dominated on a loaded machine.
extension NameTable {
    static func readFully(_ fd: Int32, into buffer: UnsafeMutableRawPointer, _ bytes: Int, at offset: Int)
        -> Bool
    {
        var done = 0
        while done < bytes {
            let n = pread(fd, buffer + done, bytes - done, off_t(offset + done))
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return false }
            done += n
        }
        return true
    }
}

extension NameTable {
    /// `mask` folded to 32 bits, the low half of each scan mask in the file (`scanMask`): a–z keep their bits, any digit is
    /// bit 26, the other ASCII groups bits 27–30, non-ASCII bit 31. Folding keeps containment (`a ⊆ b` ⇒
    /// `fold(a) ⊆ fold(b)`), so the scan still passes every name that can match, a few more to check.
    static func fold(_ m: UInt64) -> UInt32 {
        var out = UInt32(truncatingIfNeeded: m & 0x3FF_FFFF)
        if (m >> 26) & 0x3FF != 0 { out |= 1 << 26 }
        let other = (m >> 36) & 0x7FF_FFFF  // the 27 bits of other ASCII
        for group in 0..<4 where (other >> (7 * UInt64(group))) & 0x7F != 0 { out |= 1 << (27 + UInt32(group)) }
        if m >> 63 != 0 { out |= 1 << 31 }
        return out
    }
}

/// Reads of single values and runs with `pread` (the search path touches no page of the mapping: on this kernel a
/// touch can map a whole large folio — up to 2 MiB — which then has to be dropped again).
extension NameTable {
    /// `bytes` bytes of the file from `offset` into `buffer`, or copied from the mapping if the read fails.
    func read(_ offset: Int, _ bytes: Int, into buffer: UnsafeMutableRawPointer) {
        guard bytes > 0 else { return }
        if !Self.readFully(fd, into: buffer, bytes, at: offset) {
            buffer.copyMemory(from: base + offset, byteCount: bytes)
        }
    }

    /// The sorted position of the name at `rank`, read with `pread`.
    func readPosition(rank: Int) -> Int {
        var value: UInt32 = 0
        withUnsafeMutableBytes(of: &value) { read(areas.order + 4 * rank, 4, into: $0.baseAddress!) }
        return Int(UInt32(littleEndian: value))
    }

    /// The type id of entry `i` (sorted position), read with `pread`.
    func readType(_ i: Int) -> UInt16 {
        var value: UInt16 = 0
        withUnsafeMutableBytes(of: &value) { read(areas.types + 2 * i, 2, into: $0.baseAddress!) }
        return UInt16(littleEndian: value)
    }

    /// `values.count` UInt32 fields from `offset` into `values`.
    func read(_ offset: Int, into values: inout [UInt32], count: Int) {
        if values.count < count { values = Array(repeating: 0, count: max(count, 2 * values.count)) }
        values.withUnsafeMutableBytes { read(offset, 4 * count, into: $0.baseAddress!) }
        for k in 0..<count { values[k] = UInt32(littleEndian: values[k]) }
    }

    /// Calls `visit(i, name)` for every sorted position `i` whose name starts with `query` (exact matches first)
    /// and is at most `bound` bytes long, in name order; `visit` returns the bound for the names after it. The
    /// fences in memory narrow both ends to blocks of `fenceStride` names, and the names from the first block to the
    /// last are read with two `pread`s into `scratch`.
    func forEachPrefixMatch(
        _ query: [UInt8], scratch: SearchScratch, bound: Int,
        _ visit: (_ i: Int, _ name: UnsafeBufferPointer<UInt8>) -> Int
    ) {
        guard count > 0 else { return }
        let upper = query + [0xFF]  // 0xFF never occurs in UTF-8
        let (a, b) = fenceBlock(query)
        let (c, d) = fenceBlock(upper)
        let first = min(a, c)
        let end = max(b, d)
        // offsets[first...end] and the names between: the names alone when both ends' offsets follow from the
        // fences (the offsets between are where the newlines are), else the offsets are read too.
        if !readRun(first, end, scratch) {
            read(areas.offsets + 4 * first, into: &scratch.runOffsets, count: end - first + 1)
            let from = Int(scratch.runOffsets[0])
            readNames(from, Int(scratch.runOffsets[end - first]) - from, scratch)
        }
        let offsets = scratch.runOffsets
        let from = Int(offsets[0])
        scratch.runBytes.withUnsafeBufferPointer { run in
            func name(_ i: Int) -> UnsafeBufferPointer<UInt8> {
                let start = Int(offsets[i - first]) - from
                let count = max(0, Int(offsets[i - first + 1]) - from - start - 1)
                return UnsafeBufferPointer(start: run.baseAddress! + start, count: count)
            }
            func lowerBound(_ key: [UInt8], _ lo: Int, _ hi: Int) -> Int {
                var lo = lo
                var hi = hi
                while lo < hi {
                    let mid = (lo + hi) / 2
                    if Self.compare(name(mid), key) < 0 { lo = mid + 1 } else { hi = mid }
                }
                return lo
            }
            let lo = lowerBound(query, a, b)
            let hi = lowerBound(upper, c, d)
            var bound = bound
            for i in lo..<max(lo, hi) where Int(offsets[i - first + 1] - offsets[i - first]) - 1 <= bound {
                bound = visit(i, name(i))
            }
        }
    }
}

extension NameTable {
    /// Where name `k` begins in the names area when the fences tell without a read: at a fence, just after one, or
    /// at the end; nil otherwise.
    private func knownOffset(_ k: Int) -> Int? {
        if k == count { return namesCount }
        let fence = k / Self.fenceStride
        guard fence < fenceOffsets.count else { return nil }
        switch k % Self.fenceStride {
        case 0: return Int(fenceOffsets[fence])
        case 1: return Int(fenceOffsets[fence]) + fenceStarts[fence + 1] - fenceStarts[fence] + 1
        default: return nil
        }
    }

    /// Reads the names `first..<end` into `scratch.runBytes` with one `pread` and their offsets (`end - first + 1`,
    /// from the newline after each) into `scratch.runOffsets`; false (the caller reads the offsets) when an end's
    /// offset is not known from the fences, or the names read do not hold exactly one newline each (a damaged file).
    func readRun(_ first: Int, _ end: Int, _ scratch: SearchScratch) -> Bool {
        // Over more than two blocks (a short prefix), finding every newline costs more than reading the offsets.
        guard end - first <= 2 * Self.fenceStride, let from = knownOffset(first), let to = knownOffset(end), to >= from
        else { return false }
        readNames(from, to - from, scratch)
        let n = end - first
        if scratch.runOffsets.count < n + 1 {
            scratch.runOffsets = Array(repeating: 0, count: max(n + 1, 2 * scratch.runOffsets.count))
        }
        let bytes = to - from
        return scratch.runBytes.withUnsafeBytes { run in
            scratch.runOffsets.withUnsafeMutableBufferPointer { offsets in
                offsets[0] = UInt32(from)
                var found = 0
                var at = 0
                while at < bytes, let newline = memchr(run.baseAddress! + at, 0x0A, bytes - at) {
                    found += 1
                    guard found <= n else { return false }
                    at = UnsafeRawPointer(newline) - run.baseAddress! + 1
                    offsets[found] = UInt32(from + at)
                }
                return found == n
            }
        }
    }

    /// `bytes` bytes of the names area from `from` into `scratch.runBytes` (grown when needed).
    private func readNames(_ from: Int, _ bytes: Int, _ scratch: SearchScratch) {
        if scratch.runBytes.count < bytes {
            scratch.runBytes = Array(repeating: 0, count: max(bytes, 2 * scratch.runBytes.count))
        }
        if bytes > 0 {
            scratch.runBytes.withUnsafeMutableBytes { read(areas.names + from, bytes, into: $0.baseAddress!) }
        }
    }
}
