import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// `names.bin`: a docset's entry names, lowercased and sorted bytewise, memory-mapped read-only for searching.
///
/// ```
/// 0   "DSNAMES1"
/// 8   count: UInt32, names byte count: UInt32
/// 16  offsets[count + 1]: UInt32   start of each name in the names area (little-endian, like every field)
///     ids[count]: UInt32           the entry's id in entries.sqlite
///     types[count]: UInt16         the entry's type id (types table), padded to 4 bytes
///     names: each lowercased name followed by "\n" (a newline inside a name is stored as a space)
/// ```
/// Exact and prefix matches are one binary search; substring matches one `memmem` pass over the names area; fuzzy
/// (subsequence) matches one `memchr`-driven pass.
final class NameTable: @unchecked Sendable {
    static let magic = Array("DSNAMES1".utf8)
    let count: Int
    private let base: UnsafeRawPointer
    private let size: Int
    private let offsets: UnsafePointer<UInt32>
    private let ids: UnsafePointer<UInt32>
    private let types: UnsafePointer<UInt16>
    private let names: UnsafePointer<UInt8>
    private let namesCount: Int

    /// Maps `path`; nil when it is missing, truncated or inconsistent (the caller rebuilds it).
    init?(path: String) {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_size >= 16 else { return nil }
        size = Int(st.st_size)
        guard let mapped = mmap(nil, size, PROT_READ, MAP_SHARED, fd, 0), mapped != MAP_FAILED else { return nil }
        base = UnsafeRawPointer(mapped)
        let header = UnsafeRawBufferPointer(start: base, count: 16)
        let n = Int(header.loadUnaligned(fromByteOffset: 8, as: UInt32.self))
        let bytes = Int(header.loadUnaligned(fromByteOffset: 12, as: UInt32.self))
        let idsStart = 16 + 4 * (n + 1)
        let typesStart = idsStart + 4 * n
        let namesStart = (typesStart + 2 * n + 3) & ~3
        guard Array(header.prefix(8)) == Self.magic, namesStart + bytes == size else {
            munmap(mapped, size)
            return nil
        }
        count = n
        namesCount = bytes
        offsets = (base + 16).assumingMemoryBound(to: UInt32.self)
        ids = (base + idsStart).assumingMemoryBound(to: UInt32.self)
        types = (base + typesStart).assumingMemoryBound(to: UInt16.self)
        names = (base + namesStart).assumingMemoryBound(to: UInt8.self)
        // Every offset must stay inside the names area and increase, or a lookup could read past the mapping.
        var previous: UInt32 = 0
        for i in 0...n {
            let o = offsets[i]
            guard o >= previous, Int(o) <= bytes else {
                munmap(mapped, size)
                return nil
            }
            previous = o
        }
        guard n == 0 || Int(offsets[n]) == bytes else {
            munmap(mapped, size)
            return nil
        }
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

    /// Tells the kernel the scanned pages may leave this process's resident set (they stay in the page cache).
    func release() { madvise(UnsafeMutableRawPointer(mutating: base), size, MADV_DONTNEED) }

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

    /// The sorted position holding byte `position` of the names area, searching forward from `hint` (an entry at or
    /// before it: scans move forward, so hits are usually close to the previous one) by galloping, then bisecting.
    private func entry(at position: Int, from hint: Int = 0) -> Int {
        var lo = hint
        var step = 1
        var hi = lo + 1
        while hi < count, Int(offsets[hi]) <= position {
            lo = hi
            step *= 2
            hi = lo + step
        }
        hi = min(hi, count)
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if Int(offsets[mid]) <= position { lo = mid } else { hi = mid }
        }
        return lo
    }

    /// The first occurrence of `needle` in `count` bytes at `haystack` (memchr for its first byte, then memcmp).
    static func find(_ needle: UnsafeRawBufferPointer, in haystack: UnsafePointer<UInt8>, count: Int)
        -> UnsafePointer<UInt8>?
    {
        guard let first = needle.first, needle.count <= count else { return nil }
        var cursor = haystack
        let last = haystack + (count - needle.count)
        while cursor <= last {
            guard let found = memchr(cursor, Int32(first), cursor.distance(to: last) + 1) else { return nil }
            let p = UnsafePointer(found.assumingMemoryBound(to: UInt8.self))
            if needle.count == 1 || memcmp(p + 1, needle.baseAddress! + 1, needle.count - 1) == 0 { return p }
            cursor = p + 1
        }
        return nil
    }

    /// Calls `visit` once for every entry containing `query` past its first byte (substring, not prefix).
    func substrings(_ query: [UInt8], _ visit: (Int) -> Void) {
        guard !query.isEmpty, count > 0 else { return }
        var cursor = 0
        var last = 0
        query.withUnsafeBytes { needle in
            while cursor < namesCount {
                guard let hit = Self.find(needle, in: names + cursor, count: namesCount - cursor) else { return }
                let position = names.distance(to: hit)
                let i = entry(at: position, from: last)
                last = i
                if Int(offsets[i]) != position { visit(i) }
                cursor = Int(offsets[i + 1])
            }
        }
    }

    /// Calls `visit` for every entry whose name has `query` as a subsequence but not as a substring.
    func subsequences(_ query: [UInt8], _ visit: (Int) -> Void) {
        guard let first = query.first, count > 0 else { return }
        var cursor = 0
        var last = 0
        let end = names + namesCount
        query.withUnsafeBytes { needle in
            while cursor < namesCount {
                guard let found = memchr(names + cursor, Int32(first), namesCount - cursor) else { return }
                let start = UnsafePointer(found.assumingMemoryBound(to: UInt8.self))
                let lineEnd: UnsafePointer<UInt8> =
                    memchr(start, 0x0A, start.distance(to: end)).map { UnsafePointer($0.assumingMemoryBound(to: UInt8.self)) }
                    ?? end
                var p = start + 1
                var k = 1
                while k < query.count && p < lineEnd {
                    if p.pointee == query[k] { k += 1 }
                    p += 1
                }
                if k == query.count {
                    let i = entry(at: names.distance(to: start), from: last)
                    last = i
                    let line = name(i)
                    if Self.find(needle, in: line.baseAddress!, count: line.count) == nil { visit(i) }
                }
                cursor = names.distance(to: lineEnd) + 1
            }
        }
    }
}

extension NameTable {
    /// Collects names in insertion order and writes them sorted.
    final class Builder {
        private var bytes: [UInt8] = []
        private var starts: [UInt32] = []
        private var ids: [UInt32] = []
        private var types: [UInt16] = []
        var count: Int { ids.count }

        func append(_ name: String, id: UInt32, type: UInt16, docset: String) throws(DocsetIndexError) {
            starts.append(UInt32(bytes.count))
            for byte in name.lowercased().utf8 { bytes.append(byte == 0x0A ? 0x20 : byte) }
            bytes.append(0x0A)
            ids.append(id)
            types.append(type)
            if bytes.count >= Int(UInt32.max) - 1 { throw .tooLarge(docset, "names longer than 4 GiB in total") }
        }

        func write(to path: String, docset: String) throws(DocsetIndexError) {
            let n = ids.count
            starts.append(UInt32(bytes.count))
            let order: [Int] = bytes.withUnsafeBufferPointer { all in
                func line(_ i: Int) -> UnsafeBufferPointer<UInt8> {
                    let s = Int(starts[i])
                    return UnsafeBufferPointer(rebasing: all[s..<(Int(starts[i + 1]) - 1)])
                }
                return (0..<n).sorted { a, b in
                    let c = NameTable.compare(line(a), line(b))
                    return c != 0 ? c < 0 : ids[a] < ids[b]
                }
            }
            var out: [UInt8] = NameTable.magic
            out.reserveCapacity(16 + 10 * n + bytes.count + 8)
            func put32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { out += $0 } }
            put32(UInt32(n))
            put32(UInt32(bytes.count))
            var offset: UInt32 = 0
            for i in order {
                put32(offset)
                offset += starts[i + 1] - starts[i]
            }
            put32(offset)
            for i in order { put32(ids[i]) }
            for i in order { withUnsafeBytes(of: types[i].littleEndian) { out += $0 } }
            while out.count % 4 != 0 { out.append(0) }
            for i in order { out += bytes[Int(starts[i])..<Int(starts[i + 1])] }
            let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
            if fd < 0 { throw .io(docset, "\(path): \(String(cString: strerror(errno)))") }
            defer { close(fd) }
            var done = 0
            while done < out.count {
                let w = out.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + done, $0.count - done) }
                if w < 0 && errno == EINTR { continue }
                if w <= 0 { throw .io(docset, "write \(path): \(String(cString: strerror(errno)))") }
                done += w
            }
            if fsync(fd) != 0 { throw .io(docset, "fsync \(path): \(String(cString: strerror(errno)))") }
        }
    }
}
