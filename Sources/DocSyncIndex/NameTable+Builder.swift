import DocSyncSupport
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension NameTable {
    /// Collects entries in insertion order and writes `names.bin` sorted by name (layout in `NameTable`).
    final class Builder {
        private var bytes: [UInt8] = []
        private var starts: [UInt32] = []
        private var types: [UInt16] = []
        private var recordData: [UInt8] = []
        private var recordStarts: [UInt32] = []
        var count: Int { types.count }

        func append(_ name: String, type: UInt16, location: EntryLocation, docset: String) throws(DocsetIndexError) {
            starts.append(UInt32(bytes.count))
            if !appendLowercasedASCII(name) {
                for byte in name.lowercased().utf8 { bytes.append(byte == 0x0A ? 0x20 : byte) }
            }
            bytes.append(0x0A)
            types.append(type)
            recordStarts.append(UInt32(recordData.count))
            NameTable.appendRecord(name: name, location: location, to: &recordData)
            if bytes.count >= Int(UInt32.max) - 1 || recordData.count >= Int(UInt32.max) - 1 {
                throw .tooLarge(docset, "names or paths longer than 4 GiB in total")
            }
        }

        /// Appends `name` lowercased (newlines as spaces) when it is ASCII — what `lowercased()` gives then: A–Z
        /// become a–z, nothing else changes — without building a lowercased String per entry. False (and nothing
        /// appended) when `name` is not ASCII.
        private func appendLowercasedASCII(_ name: String) -> Bool {
            let appended = name.utf8.withContiguousStorageIfAvailable { source -> Bool in
                for byte in source where byte >= 0x80 { return false }
                for byte in source {
                    switch byte {
                    case UInt8(ascii: "A")...UInt8(ascii: "Z"): bytes.append(byte | 0x20)
                    case 0x0A: bytes.append(0x20)
                    default: bytes.append(byte)
                    }
                }
                return true
            }
            return appended ?? false
        }

        /// Closes the last entry's name and record (`starts[i + 1]` ends entry `i`); nothing is appended after.
        func endLastEntry() {
            starts.append(UInt32(bytes.count))
            recordStarts.append(UInt32(recordData.count))
        }

        /// Writes the file; `meta` goes to its meta area (`NameTable+Records`).
        func write(to path: String, meta: [(String, String)], docset: String) throws(DocsetIndexError) {
            let n = types.count
            endLastEntry()
            let metaArea = NameTable.metaArea(meta)
            let order = sortedOrder(n)
            // Ranks: the sorted positions in length order (length, then position), and where each length begins.
            let lengths = order.map { Int(starts[$0 + 1] - starts[$0]) - 1 }
            let groups = NameTable.lengthGroups
            var lengthStarts = [Int](repeating: 0, count: groups + 2)
            for length in lengths { lengthStarts[min(length, groups) + 1] += 1 }
            for g in 0...groups { lengthStarts[g + 1] += lengthStarts[g] }
            let byLength = Self.lengthOrder(lengths)
            var rank = [Int](repeating: 0, count: n)
            for (k, position) in byLength.enumerated() { rank[position] = k }
            // Each trigram's postings list (ranks ascending, no repeats), shortest names first.
            let (keys, keyStarts, postings) =
                n < 1 << 24 ? bucketedPostings(order: order, rank: rank) : sortedPostings(order: order, rank: rank)

            // The names below `lengthGroups` bytes again, by rank (each length group one run of equal widths).
            var rankNamesBytes = 0
            for length in lengths where length < groups { rankNamesBytes += length }
            if rankNamesBytes >= Int(UInt32.max) - 1 {
                throw .tooLarge(docset, "names longer than 4 GiB in total")
            }
            let layout = NameTable.Layout(
                count: n, namesBytes: bytes.count, trigrams: keys.count, postings: postings.count,
                rankNamesBytes: rankNamesBytes, recordBytes: recordData.count, metaBytes: metaArea.count)
            // Written out as it is assembled, through a small buffer (the whole file in memory beside the arrays it
            // comes from was most of the build's peak).
            let out = try FileOut(path: path, docset: docset)
            out.append(NameTable.magic)
            func put32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { out.append($0) } }
            func pad(to offset: Int) { while out.count < offset { out.append(0) } }
            for v in [n, bytes.count, keys.count, postings.count, recordData.count, metaArea.count, rankNamesBytes, 0] {
                put32(UInt32(v))
            }
            var offset: UInt32 = 0
            for i in order {
                put32(offset)
                offset += starts[i + 1] - starts[i]
            }
            put32(offset)
            var recordOffset: UInt32 = 0
            for i in order {
                put32(recordOffset)
                recordOffset += recordStarts[i + 1] - recordStarts[i]
            }
            put32(recordOffset)
            for position in byLength { put32(UInt32(position)) }
            for start in lengthStarts { put32(UInt32(start)) }
            for position in byLength {
                let i = order[position]
                let m = NameTable.scanMask(bytes[Int(starts[i])..<(Int(starts[i + 1]) - 1)])
                put32(UInt32(truncatingIfNeeded: m))
                put32(UInt32(truncatingIfNeeded: m >> 32))
            }
            for i in order { withUnsafeBytes(of: types[i].littleEndian) { out.append($0) } }
            pad(to: layout.trigrams)
            for key in keys { put32(key) }
            for start in keyStarts { put32(start) }
            for posting in postings { put32(posting) }
            for i in order { out.append(bytes[Int(starts[i])..<Int(starts[i + 1])]) }
            for position in byLength where lengths[position] < groups {
                let i = order[position]
                out.append(bytes[Int(starts[i])..<(Int(starts[i + 1]) - 1)])
            }
            for i in order { out.append(recordData[Int(recordStarts[i])..<Int(recordStarts[i + 1])]) }
            out.append(metaArea)
            precondition(out.count == layout.end)
            try out.finish()
        }

        typealias Postings = (keys: [UInt32], keyStarts: [UInt32], postings: [UInt32])

        /// The trigrams of the names (`order`: entries by sorted position; `rank`: each position's rank), each with
        /// the ranks of the names holding it, ascending and without repeats: `keys` ascending, `postings[keyStarts[k]
        /// ..< keyStarts[k + 1]]` for `keys[k]`. A counting sort by the trigram's first two bytes into one array of
        /// (third byte << 24 | rank), then a sort of each such bucket: 4 bytes per trigram occurrence, compacted in
        /// place into the postings — not 8 bytes per pair plus the sort's half-size buffer and the postings beside
        /// them (18 MB at 60k names: the build was the streaming sync's peak of memory). Ranks below 2^24.
        func bucketedPostings(order: [Int], rank: [Int]) -> Postings {
            var bucketStarts = [Int](repeating: 0, count: (1 << 16) + 1)
            func eachTrigram(_ body: (_ pair: Int, _ third: UInt8, _ position: Int) -> Void) {
                for (position, i) in order.enumerated() {
                    let s = Int(starts[i])
                    let e = Int(starts[i + 1]) - 1
                    guard e - s >= 3 else { continue }
                    for k in s...(e - 3) { body(Int(bytes[k]) << 8 | Int(bytes[k + 1]), bytes[k + 2], position) }
                }
            }
            eachTrigram { pair, _, _ in bucketStarts[pair + 1] += 1 }
            for b in 0..<(1 << 16) { bucketStarts[b + 1] += bucketStarts[b] }
            var entries = [UInt32](repeating: 0, count: bucketStarts[1 << 16])
            var fill = bucketStarts
            eachTrigram { pair, third, position in
                entries[fill[pair]] = UInt32(third) << 24 | UInt32(rank[position])
                fill[pair] += 1
            }
            fill = []
            var keys: [UInt32] = []
            var keyStarts: [UInt32] = []
            var count = 0  // postings so far, written over the entries already read
            for b in 0..<(1 << 16) where bucketStarts[b] < bucketStarts[b + 1] {
                let range = bucketStarts[b]..<bucketStarts[b + 1]
                entries[range].sort()
                var previous: UInt32?
                for j in range {
                    let entry = entries[j]
                    guard entry != previous else { continue }
                    let key = UInt32(b) << 8 | entry >> 24
                    if keys.last != key {
                        keys.append(key)
                        keyStarts.append(UInt32(count))
                    }
                    entries[count] = entry & 0xFF_FFFF
                    count += 1
                    previous = entry
                }
            }
            keyStarts.append(UInt32(count))
            entries.removeLast(entries.count - count)
            return (keys, keyStarts, entries)
        }

        /// `bucketedPostings` for any rank: (trigram << 32 | rank) pairs sorted.
        func sortedPostings(order: [Int], rank: [Int]) -> Postings {
            var pairs: [UInt64] = []
            pairs.reserveCapacity(bytes.count)
            for (position, i) in order.enumerated() {
                let s = Int(starts[i])
                let e = Int(starts[i + 1]) - 1
                guard e - s >= 3 else { continue }
                for k in s...(e - 3) {
                    let key = NameTable.trigram(bytes[k], bytes[k + 1], bytes[k + 2])
                    pairs.append(UInt64(key) << 32 | UInt64(rank[position]))
                }
            }
            pairs.sort()
            var keys: [UInt32] = []
            var keyStarts: [UInt32] = []
            var postings: [UInt32] = []
            postings.reserveCapacity(pairs.count)
            var previous: UInt64 = .max
            for pair in pairs where pair != previous {
                let key = UInt32(pair >> 32)
                if keys.last != key {
                    keys.append(key)
                    keyStarts.append(UInt32(postings.count))
                }
                postings.append(UInt32(truncatingIfNeeded: pair))
                previous = pair
            }
            keyStarts.append(UInt32(postings.count))
            return (keys, keyStarts, postings)
        }

        /// The entries' indexes sorted by name (bytewise), equal names in insertion order. Each name's first 8 bytes
        /// (big-endian, zero-padded) decide most comparisons as one integer comparison; equal prefixes compare the
        /// names (a shorter name that is a prefix of a longer one sorts first either way).
        private func sortedOrder(_ n: Int) -> [Int] {
            bytes.withUnsafeBufferPointer { all in
                func line(_ i: Int) -> UnsafeBufferPointer<UInt8> {
                    UnsafeBufferPointer(rebasing: all[Int(starts[i])..<(Int(starts[i + 1]) - 1)])
                }
                var keyed: [(prefix: UInt64, index: Int)] = (0..<n).map { i in
                    let name = line(i)
                    var prefix: UInt64 = 0
                    for k in 0..<8 { prefix = prefix << 8 | UInt64(k < name.count ? name[k] : 0) }
                    return (prefix, i)
                }
                keyed.sort { a, b in
                    if a.prefix != b.prefix { return a.prefix < b.prefix }
                    let c = NameTable.compare(line(a.index), line(b.index))
                    return c != 0 ? c < 0 : a.index < b.index
                }
                return keyed.map(\.index)
            }
        }

        /// The positions `0..<lengths.count` ordered by (length, position): a counting sort by length (positions go in
        /// ascending, so equal lengths keep their order).
        static func lengthOrder(_ lengths: [Int]) -> [Int] {
            let longest = lengths.max() ?? 0
            var next = [Int](repeating: 0, count: longest + 2)
            for length in lengths { next[length + 1] += 1 }
            for l in 0...longest { next[l + 1] += next[l] }
            var result = [Int](repeating: 0, count: lengths.count)
            for (position, length) in lengths.enumerated() {
                result[next[length]] = position
                next[length] += 1
            }
            return result
        }

    }

    /// A new file written through a 256 KiB buffer; `finish` writes the rest and makes it durable (`fsync`). The
    /// first write error is kept and reported by `finish`.
    private final class FileOut {
        static let bufferBytes = 256 << 10
        private let fd: Int32
        private let path: String
        private let docset: String
        private var buffer: [UInt8] = []
        private var failure: Int32 = 0
        private var open = true
        /// Bytes appended so far.
        private(set) var count = 0

        init(path: String, docset: String) throws(DocsetIndexError) {
            fd = Glibc.open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
            if fd < 0 { throw .io(docset, "\(path): \(String(cString: strerror(errno)))") }
            self.path = path
            self.docset = docset
            buffer.reserveCapacity(Self.bufferBytes)
        }

        deinit { if open { close(fd) } }

        func append(_ bytes: some Collection<UInt8>) {
            buffer.append(contentsOf: bytes)
            count += bytes.count
            if buffer.count >= Self.bufferBytes { flush() }
        }

        func append(_ byte: UInt8) {
            buffer.append(byte)
            count += 1
            if buffer.count >= Self.bufferBytes { flush() }
        }

        private func flush() {
            if failure == 0 {
                do throws(SystemError) { try LinuxFS.writeAll(fd, buffer, path: path) } catch { failure = error.code }
            }
            buffer.removeAll(keepingCapacity: true)
        }

        func finish() throws(DocsetIndexError) {
            flush()
            open = false
            defer { close(fd) }
            if failure != 0 { throw .io(docset, "write \(path): \(String(cString: strerror(failure)))") }
            if fsync(fd) != 0 { throw .io(docset, "fsync \(path): \(String(cString: strerror(errno)))") }
        }
    }
}
