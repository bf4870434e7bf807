import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// `names.bin`: a docset's entry names, lowercased and sorted bytewise, memory-mapped read-only for searching.
///
/// ```
/// 0   "DSNAMES2"
/// 8   count, names byte count, trigram count, posting count: UInt32 each (little-endian, like every field)
/// 24  offsets[count + 1]: UInt32        start of each name in the names area
///     ids[count]: UInt32                the entry's id in entries.sqlite
///     masks[count]: UInt64              which characters the name contains (see `mask`), 8-byte aligned
///     types[count]: UInt16              the entry's type id (types table), padded to 8 bytes
///     trigrams[trigram count]: UInt32   every 3-byte sequence of any name, sorted
///     starts[trigram count + 1]: UInt32 where each trigram's postings begin
///     postings[posting count]: UInt32   the sorted positions of the names containing each trigram
///     names: each lowercased name followed by "\n" (a newline inside a name is stored as a space)
/// ```
/// Exact and prefix matches are one binary search. Substring matches of 3 bytes or more are the postings of the
/// query's rarest trigram, each checked; shorter substrings and fuzzy (subsequence) matches are the names whose
/// character mask covers the query's, each checked — a scan of 8 bytes per entry, not of the names.
final class NameTable: @unchecked Sendable {
    static let magic = Array("DSNAMES2".utf8)
    let count: Int
    private let base: UnsafeRawPointer
    private let size: Int
    private let offsets: UnsafePointer<UInt32>
    private let ids: UnsafePointer<UInt32>
    private let masks: UnsafePointer<UInt64>
    private let types: UnsafePointer<UInt16>
    private let trigrams: UnsafeBufferPointer<UInt32>
    private let starts: UnsafePointer<UInt32>
    private let postings: UnsafePointer<UInt32>
    private let postingCount: Int
    private let names: UnsafePointer<UInt8>
    private let namesCount: Int

    struct Layout {
        var offsets = 24, ids = 0, masks = 0, types = 0, trigrams = 0, starts = 0, postings = 0, names = 0, end = 0

        init(count n: Int, namesBytes: Int, trigrams t: Int, postings p: Int) {
            ids = offsets + 4 * (n + 1)
            masks = (ids + 4 * n + 7) & ~7
            types = masks + 8 * n
            trigrams = (types + 2 * n + 7) & ~7
            starts = trigrams + 4 * t
            postings = starts + 4 * (t + 1)
            names = postings + 4 * p
            end = names + namesBytes
        }
    }

    /// Maps `path`; nil when it is missing, truncated or inconsistent (the caller rebuilds it).
    init?(path: String) {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_size >= 24 else { return nil }
        size = Int(st.st_size)
        guard let mapped = mmap(nil, size, PROT_READ, MAP_SHARED, fd, 0), mapped != MAP_FAILED else { return nil }
        base = UnsafeRawPointer(mapped)
        let header = UnsafeRawBufferPointer(start: base, count: 24)
        func field(_ i: Int) -> Int { Int(header.loadUnaligned(fromByteOffset: 8 + 4 * i, as: UInt32.self)) }
        let layout = Layout(count: field(0), namesBytes: field(1), trigrams: field(2), postings: field(3))
        guard Array(header.prefix(8)) == Self.magic, layout.end == size else {
            munmap(mapped, size)
            return nil
        }
        count = field(0)
        namesCount = field(1)
        postingCount = field(3)
        offsets = (base + layout.offsets).assumingMemoryBound(to: UInt32.self)
        ids = (base + layout.ids).assumingMemoryBound(to: UInt32.self)
        masks = (base + layout.masks).assumingMemoryBound(to: UInt64.self)
        types = (base + layout.types).assumingMemoryBound(to: UInt16.self)
        trigrams = UnsafeBufferPointer(
            start: (base + layout.trigrams).assumingMemoryBound(to: UInt32.self), count: field(2))
        starts = (base + layout.starts).assumingMemoryBound(to: UInt32.self)
        postings = (base + layout.postings).assumingMemoryBound(to: UInt32.self)
        names = (base + layout.names).assumingMemoryBound(to: UInt8.self)
        // Offsets must increase inside the names area, postings stay below count: else a lookup could read past
        // the mapping. (docsync wrote the file, but a disk or another program may have damaged it.)
        guard Self.valid(offsets, count + 1, limit: UInt32(namesCount), increasing: true),
            count == 0 || Int(offsets[count]) == namesCount,
            Self.valid(starts, trigrams.count + 1, limit: UInt32(postingCount), increasing: true),
            Self.valid(postings, postingCount, limit: UInt32(max(count, 1) - 1), increasing: false)
        else {
            munmap(mapped, size)
            return nil
        }
        release()
    }

    private static func valid(_ values: UnsafePointer<UInt32>, _ n: Int, limit: UInt32, increasing: Bool) -> Bool {
        var previous: UInt32 = 0
        for i in 0..<n {
            let v = values[i]
            if v > limit || (increasing && v < previous) { return false }
            previous = v
        }
        return true
    }

    deinit { munmap(UnsafeMutableRawPointer(mutating: base), size) }

    func id(_ i: Int) -> Int { Int(ids[i]) }
    func type(_ i: Int) -> UInt16 { types[i] }
    /// The lowercased name of entry `i` (sorted position), without its newline.
    func name(_ i: Int) -> UnsafeBufferPointer<UInt8> {
        let start = Int(offsets[i])
        return UnsafeBufferPointer(start: names + start, count: max(0, Int(offsets[i + 1]) - start - 1))
    }
    func length(_ i: Int) -> Int { max(0, Int(offsets[i + 1]) - Int(offsets[i]) - 1) }

    /// Lets the scanned pages leave this process's resident set (they stay in the page cache).
    func release() { madvise(UnsafeMutableRawPointer(mutating: base), size, MADV_DONTNEED) }

    /// The characters of `bytes` as a 64-bit set: a–z, 0–9 their own bits, other ASCII folded onto 27 bits, any
    /// non-ASCII byte one bit. A name can contain `query` only if its mask covers the query's.
    static func mask(_ bytes: some Sequence<UInt8>) -> UInt64 {
        var m: UInt64 = 0
        for b in bytes {
            let bit: UInt8 =
                switch b {
                case 0x61...0x7A: b - 0x61
                case 0x30...0x39: b - 0x30 + 26
                case 0x80...: 63
                default: 36 + b % 27
                }
            m |= 1 << UInt64(bit)
        }
        return m
    }

    static func trigram(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt32 {
        UInt32(a) << 16 | UInt32(b) << 8 | UInt32(c)
    }

    /// The sorted positions whose names start with `query` (exact matches come first).
    func prefixRange(_ query: [UInt8]) -> Range<Int> {
        let lo = lowerBound(query)
        let hi = lowerBound(query + [0xFF])  // 0xFF never occurs in UTF-8
        return lo..<max(lo, hi)
    }

    private func lowerBound(_ key: [UInt8]) -> Int {
        var lo = 0
        var hi = count
        while lo < hi {
            let mid = (lo + hi) / 2
            if Self.compare(name(mid), key) < 0 { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    static func compare(_ a: UnsafeBufferPointer<UInt8>, _ b: [UInt8]) -> Int32 {
        b.withUnsafeBufferPointer { compare(a, $0) }
    }

    static func compare(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int32 {
        let common = min(a.count, b.count)
        if common > 0 {
            let c = memcmp(a.baseAddress!, b.baseAddress!, common)
            if c != 0 { return c }
        }
        return a.count < b.count ? -1 : (a.count > b.count ? 1 : 0)
    }

    /// Where `needle` first occurs in `haystack` (memchr for its first byte, then memcmp); nil when it does not.
    static func find(_ needle: UnsafeBufferPointer<UInt8>, in haystack: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let first = needle.first, needle.count <= haystack.count, let start = haystack.baseAddress else {
            return nil
        }
        var cursor = 0
        let last = haystack.count - needle.count
        while cursor <= last {
            guard let found = memchr(start + cursor, Int32(first), last - cursor + 1) else { return nil }
            let p = UnsafePointer(found.assumingMemoryBound(to: UInt8.self))
            let index = start.distance(to: p)
            if needle.count == 1 || memcmp(p + 1, needle.baseAddress! + 1, needle.count - 1) == 0 { return index }
            cursor = index + 1
        }
        return nil
    }

    /// Calls `visit` once for every entry containing `query` past its first byte (substring, not prefix).
    func substrings(_ query: [UInt8], _ visit: (Int) -> Void) {
        guard !query.isEmpty, count > 0 else { return }
        query.withUnsafeBufferPointer { needle in
            func check(_ i: Int) {
                if let at = Self.find(needle, in: name(i)), at > 0 { visit(i) }
            }
            guard query.count >= 3 else {
                let wanted = Self.mask(query)
                for i in 0..<count where masks[i] & wanted == wanted { check(i) }
                return
            }
            // The rarest of the query's trigrams; a trigram no name has means no match at all.
            var best: Range<Int>?
            for k in 0...(query.count - 3) {
                guard let postings = postings(of: Self.trigram(query[k], query[k + 1], query[k + 2])) else { return }
                if best == nil || postings.count < best!.count { best = postings }
            }
            for p in best ?? 0..<0 { check(Int(postings[p])) }
        }
    }

    /// Calls `visit` for every entry whose name has `query` as a subsequence but not as a substring.
    func subsequences(_ query: [UInt8], _ visit: (Int) -> Void) {
        guard !query.isEmpty, count > 0 else { return }
        let wanted = Self.mask(query)
        query.withUnsafeBufferPointer { needle in
            for i in 0..<count where masks[i] & wanted == wanted {
                let line = name(i)
                var k = 0
                for byte in line where byte == needle[k] {
                    k += 1
                    if k == needle.count { break }
                }
                if k == needle.count, Self.find(needle, in: line) == nil { visit(i) }
            }
        }
    }

    /// The posting range of `key`; nil when no name contains it.
    private func postings(of key: UInt32) -> Range<Int>? {
        var lo = 0
        var hi = trigrams.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if trigrams[mid] < key { lo = mid + 1 } else { hi = mid }
        }
        guard lo < trigrams.count, trigrams[lo] == key else { return nil }
        return Int(starts[lo])..<Int(starts[lo + 1])
    }
}
