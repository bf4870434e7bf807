#if canImport(Glibc)
    import Glibc
#endif

/// Buffers one search reuses for every docset (`DocsetIndex` keeps a few between searches), so scanning the masks
/// and postings allocates and faults in nothing per query.
final class SearchScratch {
    var masks: [UInt64] = []
    var lists: [[UInt32]] = []
}

/// The sections scanned whole, read with `pread` rather than through the mapping: pages read this way never enter
/// the process's resident set (they stay in the shared page cache), so they need not be dropped after a query and
/// faulted back in by the next — the cost that dominated a loaded machine.
extension NameTable {
    /// Calls `body` with the character masks of every entry: read into `scratch`, or the mapped ones if the read
    /// fails.
    func withMasks<R>(_ scratch: SearchScratch, _ body: (UnsafePointer<UInt64>) -> R) -> R {
        if scratch.masks.count < count { scratch.masks = Array(repeating: 0, count: count) }
        let read = scratch.masks.withUnsafeMutableBytes {
            Self.readFully(fd, into: $0.baseAddress!, count * 8, at: masksOffset)
        }
        guard read else { return body(masks) }
        return scratch.masks.withUnsafeBufferPointer { body($0.baseAddress!) }
    }

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

    private static func readFully(_ fd: Int32, into buffer: UnsafeMutableRawPointer, _ bytes: Int, at offset: Int)
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
