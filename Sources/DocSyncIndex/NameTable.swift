import DocSyncSupport
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// `names.bin`: a docset's derived index in one file, memory-mapped read-only for searching: the entry names,
/// lowercased and sorted bytewise, with what search needs to find them and what a hit needs to be shown.
///
/// ```
/// 0   "DSNAMES6"
/// 8   count, names bytes, trigram count, posting count, records bytes, meta bytes, rank names bytes, 0: UInt32
///     each (little-endian, like every field)
/// 40  offsets[count + 1]: UInt32        start of each name in the names area
///     records[count + 1]: UInt32        start of each entry's record in the records area
///     order[count]: UInt32              the sorted positions in length order (name length, then position): the
///                                       k-th shortest name is `order[k]`; k is the name's *rank*
///     lengthStarts[258]: UInt32         the first rank of each name length 0...255, of 256 bytes and more, and count
///     lengthMasks[count]: UInt64        by rank, which characters the name contains (low 32 bits: `fold` of
///                                       `mask`) and which occur at least twice (high 32 bits; see `scanMask`)
///     types[count]: UInt16              the entry's type id (see meta), padded to 8 bytes
///     trigrams[trigram count]: UInt32   every 3-byte sequence of any name, sorted
///     starts[trigram count + 1]: UInt32 where each trigram's postings begin
///     postings[posting count]: UInt32   the sorted ranks of the names containing each trigram (shortest first)
///     names: each lowercased name followed by "\n" (a newline inside a name is stored as a space)
///     rank names: the lowercased names of fewer than 256 bytes again, by rank, without separators: a length
///                 group's names are one run of equal-width names (where each run starts follows from
///                 `lengthStarts`), checked in place by the scans (`keepsNames`) or read with `pread`
///                 (`NameTable+LengthOrder`)
///     records: per entry its name as the docset spells it, page path and fragment (`NameTable+Records`)
///     meta: what the index was built from, and the type names (`NameTable+Records`)
/// ```
/// Exact and prefix matches are one binary search (over in-memory fences, then one block of the file). Substring
/// matches of 3 bytes or more are the postings of the query's rarest trigrams intersected, each checked; shorter
/// substrings and fuzzy (subsequence) matches are the names whose character masks cover the query's (the characters
/// it contains, and those it contains twice or more), each checked — a scan of 8 bytes per entry compared in place in
/// the mapping (`MaskWalk`), not of the names. Both walk the names shortest first (postings hold ranks, masks are
/// stored by rank), so a search that already holds its best `limit` stops at the first length that can no longer
/// rank (`NameTable+LengthOrder`); the names they check are read a length group at a time from the rank names, in
/// sequence, not one random page of the mapping per candidate. A hit's display data is one record read from the
/// same mapping: no database is open while searching. Besides the masks (which stay mapped:
/// file pages, 8 bytes an entry), what a query reads is in memory or read with `pread`, so the rest of the mapping is
/// touched only for the few names that pass, and `release` drops those pages again.
///
/// `@unchecked Sendable`: every stored property is `let`; the pointers address a read-only mapping and memory
/// allocated once at open, never written after `init` and freed only in `deinit`.
final class NameTable: @unchecked Sendable {
    static let magic = Array("DSNAMES6".utf8)
    static let headerSize = 40
    /// Linux's `O_NOATIME` (Glibc's module does not export it).
    static let noAccessTime: Int32 = 0o1_000_000
    let count: Int
    let base: UnsafeRawPointer
    private let size: Int
    private let offsets: UnsafePointer<UInt32>
    let records: UnsafePointer<UInt32>
    /// The sorted position of each rank (see the layout), mapped.
    let order: UnsafePointer<UInt32>
    private let types: UnsafePointer<UInt16>
    let trigrams: UnsafeBufferPointer<UInt32>
    let starts: UnsafePointer<UInt32>
    let postings: UnsafePointer<UInt32>
    private let postingCount: Int
    private let names: UnsafePointer<UInt8>
    let namesCount: Int
    /// Every `fenceStride`-th name, in memory: a binary search over them first, then within one block of the
    /// mapping, so a lookup touches one or two pages of `names.bin` instead of one per probe.
    static let fenceStride = 64
    var fenceBytes: [UInt8] = []
    var fenceStarts: [Int] = [0]
    /// Where each fence's name begins in the names area: with the fence's length, where the name after it begins,
    /// so a block's names are one `pread` (their separators give the rest: `NameTable+Reads`).
    var fenceOffsets: [UInt32] = []
    /// The trigram directory, in memory (a few KiB per docset); the postings themselves are read with `pread` into
    /// reused buffers (`NameTable+Reads`): walking them maps no page of the file, so nothing has to be dropped from
    /// the resident set after each query and faulted back in by the next.
    var trigramKeys: [UInt32] = []
    var trigramStarts: [UInt32] = []
    /// The first rank of each name length (0...255; 256: 256 bytes or more), and `count` at the end.
    var lengthStarts: [Int] = []
    /// The length groups holding names, ascending (the scans skip the others).
    var nonEmptyGroups: [Int] = []
    /// Names of this many bytes or more share the last length group.
    static let lengthGroups = 256
    /// Where each length group's names begin in the rank names area (bytes; `lengthGroups + 1` of them, the last
    /// its end), and the file offset of that area.
    var rankNameStarts: [Int] = []
    let rankNamesOffset: Int
    /// Where each area begins in the file (for `pread`).
    let areas: Layout
    /// The rank names area in the mapping (checked in place when `keepsNames`; else read only when a `pread` fails).
    let rankNamesBase: UnsafeRawPointer
    let fd: Int32
    let postingsOffset: Int
    /// The records area and the meta area (`NameTable+Records`).
    let recordBytes: UnsafeRawBufferPointer
    let metaBytes: UnsafeRawBufferPointer
    /// Whether the scan masks are compared in place and stay mapped between searches (the budget had room for them
    /// when the table was opened); else `MaskWalk` reads them with `pread` and `release` drops every page.
    let keepsMasks: Bool
    /// Whether the scans check candidate names in place in the rank names area (`rankNamesBase`), whose pages then
    /// stay mapped between searches like the masks': with the masks kept and no limit on them (the library's
    /// default). A whole name with few hits checks every longer name its letters pass (75k names over ten million
    /// entries, a name every ~1 KiB of the area): read with `pread`, that copied most of the area (82 MB) per query.
    /// Else the names are read with `pread`, a cluster of nearby candidates at a time.
    let keepsNames: Bool
    /// The budget the masks were taken from (given back at `deinit`).
    private let budget: MaskBudget?

    struct Layout {
        var offsets = NameTable.headerSize, records = 0, order = 0, lengthStarts = 0, lengthMasks = 0, types = 0
        var trigrams = 0, starts = 0, postings = 0, names = 0, rankNames = 0, recordArea = 0, meta = 0, end = 0

        init(
            count n: Int, namesBytes: Int, trigrams t: Int, postings p: Int, rankNamesBytes: Int, recordBytes: Int,
            metaBytes: Int
        ) {
            records = offsets + 4 * (n + 1)
            order = records + 4 * (n + 1)
            lengthStarts = order + 4 * n
            lengthMasks = lengthStarts + 4 * (NameTable.lengthGroups + 2)
            types = lengthMasks + 8 * n
            trigrams = (types + 2 * n + 7) & ~7
            starts = trigrams + 4 * t
            postings = starts + 4 * (t + 1)
            names = postings + 4 * p
            rankNames = names + namesBytes
            recordArea = rankNames + rankNamesBytes
            meta = recordArea + recordBytes
            end = meta + metaBytes
        }
    }

    /// Maps `path`; nil when it is missing, truncated or inconsistent (the caller rebuilds it). The scan masks stay
    /// mapped between searches when `masks` has room for them.
    init?(path: String, masks: MaskBudget? = nil) {
        guard let fd = (try? RegularFile.open(path)).flatMap({ $0?.fd }) else { return nil }  // never a FIFO
        var keepOpen = false
        defer { if !keepOpen { close(fd) } }
        self.fd = fd
        // Searching reads this file with `pread` hundreds of times per query: no access-time bookkeeping for each
        // (allowed since docsync owns the file; ignored when refused).
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | Self.noAccessTime)
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_size >= Self.headerSize else { return nil }
        size = Int(st.st_size)
        guard let mapped = mmap(nil, size, PROT_READ, MAP_SHARED, fd, 0), mapped != MAP_FAILED else { return nil }
        base = UnsafeRawPointer(mapped)
        let header = UnsafeRawBufferPointer(start: base, count: Self.headerSize)
        func field(_ i: Int) -> Int {
            Int(UInt32(littleEndian: header.loadUnaligned(fromByteOffset: 8 + 4 * i, as: UInt32.self)))
        }
        let layout = Layout(
            count: field(0), namesBytes: field(1), trigrams: field(2), postings: field(3), rankNamesBytes: field(6),
            recordBytes: field(4), metaBytes: field(5))
        guard Array(header.prefix(8)) == Self.magic, layout.end == size else {
            munmap(mapped, size)
            return nil
        }
        count = field(0)
        postingsOffset = layout.postings
        areas = layout
        rankNamesOffset = layout.rankNames
        namesCount = field(1)
        rankNamesBase = base + layout.rankNames
        postingCount = field(3)
        offsets = (base + layout.offsets).assumingMemoryBound(to: UInt32.self)
        records = (base + layout.records).assumingMemoryBound(to: UInt32.self)
        order = (base + layout.order).assumingMemoryBound(to: UInt32.self)
        let starts32 = (base + layout.lengthStarts).assumingMemoryBound(to: UInt32.self)
        types = (base + layout.types).assumingMemoryBound(to: UInt16.self)
        trigrams = UnsafeBufferPointer(
            start: (base + layout.trigrams).assumingMemoryBound(to: UInt32.self), count: field(2))
        starts = (base + layout.starts).assumingMemoryBound(to: UInt32.self)
        postings = (base + layout.postings).assumingMemoryBound(to: UInt32.self)
        names = (base + layout.names).assumingMemoryBound(to: UInt8.self)
        recordBytes = UnsafeRawBufferPointer(start: base + layout.recordArea, count: field(4))
        metaBytes = UnsafeRawBufferPointer(start: base + layout.meta, count: field(5))
        // Offsets must increase inside the names area, postings stay below count: else a lookup could read past
        // the mapping. (docsync wrote the file, but a disk or another program may have damaged it.)
        // Every area checked or copied here is read a slice at a time and its pages dropped behind it, so opening
        // an index maps a few hundred KiB at most whatever its entries (the whole postings area stayed resident
        // until `release`: 10 MB at 120k entries, the streaming sync's peak).
        let mapping = UnsafeRawBufferPointer(start: base, count: size)
        guard Self.valid(offsets, count + 1, limit: UInt32(namesCount), increasing: true, in: mapping),
            count == 0 || Int(offsets[count]) == namesCount,
            Self.valid(records, count + 1, limit: UInt32(field(4)), increasing: true, in: mapping),
            Int(records[count]) == field(4),
            Self.valid(starts, trigrams.count + 1, limit: UInt32(postingCount), increasing: true, in: mapping),
            Self.valid(postings, postingCount, limit: UInt32(max(count, 1) - 1), increasing: false, in: mapping),
            Self.valid(order, count, limit: UInt32(max(count, 1) - 1), increasing: false, in: mapping),
            Self.valid(starts32, Self.lengthGroups + 2, limit: UInt32(count), increasing: true, in: mapping),
            Int(starts32[Self.lengthGroups + 1]) == count
        else {
            munmap(mapped, size)
            return nil
        }
        keepsMasks = masks?.take(8 * count) ?? true  // given back at `deinit`, should a check below fail
        keepsNames = keepsMasks && (masks?.unlimited ?? true)
        budget = keepsMasks ? masks : nil
        for i in stride(from: 0, to: count, by: Self.fenceStride) {
            let name = name(i)
            fenceBytes += name
            fenceStarts.append(fenceBytes.count)
            fenceOffsets.append(offsets[i])
            if i % (Self.fenceStride << 10) == 0 { Self.drop(below: UnsafeRawPointer(name.baseAddress!), in: mapping) }
        }
        lengthStarts = (0..<(Self.lengthGroups + 2)).map { Int(starts32[$0]) }
        nonEmptyGroups = (0...Self.lengthGroups).filter { lengthStarts[$0 + 1] > lengthStarts[$0] }
        // The rank names area holds exactly the names below `lengthGroups` bytes, each group's at its width.
        rankNameStarts = [0]
        for group in 0..<Self.lengthGroups {
            rankNameStarts.append(rankNameStarts[group] + group * (lengthStarts[group + 1] - lengthStarts[group]))
        }
        guard rankNameStarts[Self.lengthGroups] == field(6) else {
            keepOpen = true  // every stored property is set: `deinit` runs, unmaps, closes and gives the masks back
            return nil
        }
        trigramKeys = Array(trigrams)
        trigramStarts = Array(UnsafeBufferPointer(start: starts, count: trigrams.count + 1))
        release()
        keepOpen = true
    }

    /// Values checked (or 4-byte halves copied) between two drops of the pages behind them.
    static let sliceValues = 1 << 16

    /// Whether the `n` values are at most `limit` (and never decrease, with `increasing`); every `sliceValues` of
    /// them, the mapping's pages behind the last one checked leave the resident set (`drop`).
    private static func valid(
        _ values: UnsafePointer<UInt32>, _ n: Int, limit: UInt32, increasing: Bool, in mapping: UnsafeRawBufferPointer
    ) -> Bool {
        var previous: UInt32 = 0
        for i in 0..<n {
            let v = values[i]
            if v > limit || (increasing && v < previous) { return false }
            previous = v
            if i % sliceValues == sliceValues - 1 { drop(below: UnsafeRawPointer(values + i), in: mapping) }
        }
        if n > 0 { drop(below: UnsafeRawPointer(values + n), in: mapping) }
        return true
    }

    /// Lets the mapping's whole pages below `end` leave the resident set (they stay in the page cache; a later
    /// read faults them in again). The pages of an area read in order are dropped behind the reader this way.
    static func drop(below end: UnsafeRawPointer, in mapping: UnsafeRawBufferPointer) {
        let page = Int(getpagesize())
        let length = min(end - mapping.baseAddress!, mapping.count) / page * page
        if length > 0 { madvise(UnsafeMutableRawPointer(mutating: mapping.baseAddress!), length, MADV_DONTNEED) }
    }

    deinit {
        munmap(UnsafeMutableRawPointer(mutating: base), size)
        close(fd)
        budget?.giveBack(8 * count)
    }

    func type(_ i: Int) -> UInt16 { types[i] }
    /// The lowercased name of entry `i` (sorted position), without its newline.
    func name(_ i: Int) -> UnsafeBufferPointer<UInt8> {
        let start = Int(offsets[i])
        return UnsafeBufferPointer(start: names + start, count: max(0, Int(offsets[i + 1]) - start - 1))
    }
    func length(_ i: Int) -> Int { max(0, Int(offsets[i + 1]) - Int(offsets[i]) - 1) }

    /// Lets the scanned pages leave this process's resident set (they stay in the page cache), all but the scan
    /// masks' (when `keepsMasks`) and the rank names' (when `keepsNames`): the scans compare those in place
    /// (`MaskWalk`, `Ranker`), every query that reaches them touches many of them, and faulting them back in costs
    /// more than they take (file pages, never anonymous memory).
    func release() {
        let page = Int(getpagesize())
        let start = UnsafeMutableRawPointer(mutating: base)
        var from = 0  // drops the pages from `from` up to the next area kept, in file order (masks before names)
        func keep(_ lower: Int, _ upper: Int) {
            let first = lower / page * page
            if first > from { madvise(start + from, first - from, MADV_DONTNEED) }
            from = max(from, min(size, (upper + page - 1) / page * page))
        }
        if keepsMasks { keep(areas.lengthMasks, areas.types) }
        if keepsNames { keep(areas.rankNames, areas.recordArea) }
        if from < size { madvise(start + from, size - from, MADV_DONTNEED) }
    }

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

    /// The positions `first..<last` that hold the first name not below `key` (or it is `last`): the fences in memory
    /// narrow the answer to one block of `fenceStride` names. `(0, 0)` when the key is not above the first name.
    func fenceBlock(_ key: [UInt8]) -> (first: Int, last: Int) {
        // The first fence not below the key; the answer is after the fence before it, and at most this one.
        var lo = 0
        var hi = fenceStarts.count - 1
        fenceBytes.withUnsafeBufferPointer { fences in
            while lo < hi {
                let mid = (lo + hi) / 2
                let fence = UnsafeBufferPointer(rebasing: fences[fenceStarts[mid]..<fenceStarts[mid + 1]])
                if Self.compare(fence, key) < 0 { lo = mid + 1 } else { hi = mid }
            }
        }
        guard lo > 0 else { return (0, 0) }
        return ((lo - 1) * Self.fenceStride + 1, min(lo * Self.fenceStride, count))
    }

    /// The first sorted position whose name is not below `key`.
    private func lowerBound(_ key: [UInt8]) -> Int {
        var (first, last) = fenceBlock(key)
        while first < last {
            let mid = (first + last) / 2
            if Self.compare(name(mid), key) < 0 { first = mid + 1 } else { last = mid }
        }
        return first
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
}
