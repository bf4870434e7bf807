#if canImport(Glibc)
    import Glibc
#endif

/// Buffers one search reuses for every docset (`DocsetIndex` keeps a few between searches), so reading postings
/// allocates and faults in nothing per query.
final class SearchScratch {
    var lists: [[UInt32]] = []
    /// The substring candidates of every docset searched, one after the other (ranks).
    var candidates: [UInt32] = []
    /// One length group's names (`NameTable.readRankNames`).
    var names: [UInt8] = []
}

/// Postings read with `pread` rather than through the mapping: pages read this way never enter the process's
/// resident set (they stay in the shared page cache), so they need not be dropped after a query and faulted back in
/// by the next — the cost that dominated on a loaded machine.
extension NameTable {
    /// The postings in `range`, read into `buffer` (its first `range.count` elements), or copied from the mapping
    /// if the read fails.
    func readPostings(_ range: Range<Int>, into buffer: inout [UInt32]) {
        if buffer.count < range.count { buffer = Array(repeating: 0, count: range.count) }
        guard !range.isEmpty else { return }
        let read = buffer.withUnsafeMutableBytes {
            Self.readFully(fd, into: $0.baseAddress!, range.count * 4, at: postingsOffset + range.lowerBound * 4)
        }
        if !read { for k in range.indices { buffer[k - range.lowerBound] = postings[k] } }
    }

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
    /// `mask` folded to 32 bits, kept in memory for the scans (4 bytes per entry): a–z keep their bits, any digit is
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
