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
        /// The display records not spilled yet (all of them without a `records` file).
        private var recordData: [UInt8] = []
        private var recordStarts: [UInt32] = []
        /// Where the records go as they come, with `spillDirectory` (nil: kept in `recordData`).
        private let records: ScratchFile?
        private var spilledBytes = 0
        private let windowBytes: Int
        private let maxPasses: Int
        var count: Int { types.count }

        /// A builder keeping everything in memory (tests and small docsets).
        convenience init() { self.init(records: nil, windowBytes: 0, maxPasses: 0) }

        /// A builder whose display records — names, paths and fragments again, the largest part after the names —
        /// are spilled to a scratch file in `spillDirectory` and placed in sorted order through a window of
        /// `windowBytes` (`RecordWindows`: widened so that at most `maxPasses` read the file), not held in memory
        /// (8 MB at 120k entries). Windows and blocks below `RecordWindows.minimumBytes` are refused (a
        /// precondition): each window reads the whole file, so tiny ones make the work quadratic.
        convenience init(
            spillDirectory: String, docset: String, windowBytes: Int = 2 << 20, blockBytes: Int = 256 << 10,
            maxPasses: Int = RecordWindows.maxPasses
        ) throws(DocsetIndexError) {
            precondition(
                windowBytes >= RecordWindows.minimumBytes && blockBytes >= RecordWindows.minimumBytes && maxPasses > 0,
                "record windows and blocks of at least \(RecordWindows.minimumBytes) bytes, at least one pass")
            let file = try ScratchFile(path: "\(spillDirectory)/records.tmp", docset: docset, blockBytes: blockBytes)
            self.init(records: file, windowBytes: windowBytes, maxPasses: maxPasses)
        }

        private init(records: ScratchFile?, windowBytes: Int, maxPasses: Int) {
            self.records = records
            self.windowBytes = windowBytes
            self.maxPasses = maxPasses
        }

        func append(_ name: String, type: UInt16, location: EntryLocation, docset: String) throws(DocsetIndexError) {
            starts.append(UInt32(bytes.count))
            if !appendLowercasedASCII(name) {
                for byte in name.lowercased().utf8 { bytes.append(byte == 0x0A ? 0x20 : byte) }
            }
            bytes.append(0x0A)
            types.append(type)
            recordStarts.append(UInt32(spilledBytes + recordData.count))
            NameTable.appendRecord(name: name, location: location, to: &recordData)
            if bytes.count >= Int(UInt32.max) - 1 || spilledBytes + recordData.count >= Int(UInt32.max) - 1 {
                throw .tooLarge(docset, "names or paths longer than 4 GiB in total")
            }
            if let records, recordData.count >= 64 << 10 { spillRecords(records) }
        }

        private func spillRecords(_ file: ScratchFile) {
            recordData.withUnsafeBytes { file.append($0) }
            spilledBytes += recordData.count
            recordData.removeAll(keepingCapacity: true)
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
            recordStarts.append(UInt32(spilledBytes + recordData.count))
            if let records { spillRecords(records) }
        }

        /// Writes the file; `meta` goes to its meta area (`NameTable+Records`), asked for once the names are sorted
        /// and their postings made (it may wait: the index they come from is being completed); nil: nothing is
        /// written, and false is returned.
        func write(to path: String, docset: String, meta: () -> [(String, String)]?) throws(DocsetIndexError) -> Bool {
            let n = types.count
            endLastEntry()
            let order = sortedOrder(n)
            // Ranks: the sorted positions in length order (length, then position), and where each length begins.
            let lengths = order.map { starts[Int($0) + 1] - starts[Int($0)] - 1 }
            let groups = NameTable.lengthGroups
            var lengthStarts = [Int](repeating: 0, count: groups + 2)
            for length in lengths { lengthStarts[min(Int(length), groups) + 1] += 1 }
            for g in 0...groups { lengthStarts[g + 1] += lengthStarts[g] }
            let byLength = Self.lengthOrder(lengths)
            var rank = [UInt32](repeating: 0, count: n)
            for (k, position) in byLength.enumerated() { rank[Int(position)] = UInt32(k) }
            // Each trigram's postings list (ranks ascending, no repeats), shortest names first, spilled to a scratch
            // file as they are made (they were the largest array of the build) and copied into place below.
            let spill = try ScratchFile(path: "\(path).postings", docset: docset)
            func emit(_ postings: UnsafeBufferPointer<UInt32>) {
                if 1.littleEndian != 1 {
                    for posting in postings { withUnsafeBytes(of: posting.littleEndian) { spill.append($0) } }
                } else {
                    spill.append(UnsafeRawBufferPointer(postings))
                }
            }
            let (keys, keyStarts) =
                n < 1 << 24
                ? bucketedPostings(order: order, rank: rank, chunk: Self.chunkOccurrences, emit: emit)
                : sortedPostings(order: order, rank: rank, emit: emit)
            let recordBytes = Int(recordStarts[n])
            guard let meta = meta() else { return false }
            let metaArea = NameTable.metaArea(meta)

            // The names below `lengthGroups` bytes again, by rank (each length group one run of equal widths).
            var rankNamesBytes = 0
            for length in lengths where length < groups { rankNamesBytes += Int(length) }
            if rankNamesBytes >= Int(UInt32.max) - 1 {
                throw .tooLarge(docset, "names longer than 4 GiB in total")
            }
            let layout = NameTable.Layout(
                count: n, namesBytes: bytes.count, trigrams: keys.count, postings: spill.count / 4,
                rankNamesBytes: rankNamesBytes, recordBytes: recordBytes, metaBytes: metaArea.count)
            // Written out as it is assembled, through a small buffer (the whole file in memory beside the arrays it
            // comes from was most of the build's peak).
            let out = try FileOut(path: path, docset: docset)
            out.append(NameTable.magic)
            func put32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { out.append($0) } }
            func pad(to offset: Int) { while out.count < offset { out.append(0) } }
            for v in [n, bytes.count, keys.count, spill.count / 4, recordBytes, metaArea.count, rankNamesBytes, 0] {
                put32(UInt32(v))
            }
            var offset: UInt32 = 0
            for i in order {
                put32(offset)
                offset += starts[Int(i) + 1] - starts[Int(i)]
            }
            put32(offset)
            var recordOffset: UInt32 = 0
            for i in order {
                put32(recordOffset)
                recordOffset += recordStarts[Int(i) + 1] - recordStarts[Int(i)]
            }
            put32(recordOffset)
            for position in byLength { put32(position) }
            for start in lengthStarts { put32(UInt32(start)) }
            for position in byLength {
                let i = Int(order[Int(position)])
                let m = NameTable.scanMask(bytes[Int(starts[i])..<(Int(starts[i + 1]) - 1)])
                put32(UInt32(truncatingIfNeeded: m))
                put32(UInt32(truncatingIfNeeded: m >> 32))
            }
            for i in order { withUnsafeBytes(of: types[Int(i)].littleEndian) { out.append($0) } }
            pad(to: layout.trigrams)
            for key in keys { put32(key) }
            for start in keyStarts { put32(start) }
            try spill.blocks { _, block in out.append(block) }
            for i in order { out.append(bytes[Int(starts[Int(i)])..<Int(starts[Int(i) + 1])]) }
            for position in byLength where lengths[Int(position)] < groups {
                let i = Int(order[Int(position)])
                out.append(bytes[Int(starts[i])..<(Int(starts[i + 1]) - 1)])
            }
            if let records {
                try RecordWindows.copy(
                    order: order, recordStarts: recordStarts, from: records, windowBytes: windowBytes,
                    maxPasses: maxPasses
                ) { out.append($0) }
            } else {
                for i in order { out.append(recordData[Int(recordStarts[Int(i)])..<Int(recordStarts[Int(i) + 1])]) }
            }
            out.append(metaArea)
            precondition(out.count == layout.end)
            try out.finish()
            return true
        }

        typealias Postings = (keys: [UInt32], keyStarts: [UInt32], postings: [UInt32])

        /// Trigram occurrences sorted in memory at once at most (4 bytes each), unless one bucket holds more.
        static let chunkOccurrences = 1 << 19

        /// `bucketedPostings(order:rank:chunk:emit:)` with the postings collected in memory (tests).
        func bucketedPostings(order: [UInt32], rank: [UInt32], chunk: Int = Builder.chunkOccurrences) -> Postings {
            var postings: [UInt32] = []
            let (keys, keyStarts) = bucketedPostings(order: order, rank: rank, chunk: chunk) {
                postings.append(contentsOf: $0)
            }
            return (keys, keyStarts, postings)
        }

        /// The trigrams of the names (`order`: entries by sorted position; `rank`: each position's rank), each with
        /// the ranks of the names holding it, ascending and without repeats: `keys` ascending, and the postings
        /// handed to `emit` in key order (`postings[keyStarts[k] ..< keyStarts[k + 1]]` for `keys[k]`). Buckets by
        /// the trigram's first two bytes, counted first; then, for each run of buckets holding at most `chunk`
        /// occurrences, a scan of the names fills one array of (third byte << 24 | rank), each bucket is sorted,
        /// and the postings compacted in place are emitted: 4 bytes per occurrence of one run in memory, not of all
        /// of them (8 MB at 120k names: the streaming sync's peak). Ranks below 2^24.
        func bucketedPostings(
            order: [UInt32], rank: [UInt32], chunk: Int, emit: (UnsafeBufferPointer<UInt32>) -> Void
        ) -> (keys: [UInt32], keyStarts: [UInt32]) {
            var bucketStarts = [Int](repeating: 0, count: (1 << 16) + 1)
            // Each entry's rank, so that a scan reads the names in the order they are stored (a scan in sorted
            // order jumped around the names: a cache miss a name, on every pass).
            var entryRank = [UInt32](repeating: 0, count: order.count)
            for (position, i) in order.enumerated() { entryRank[Int(i)] = rank[position] }
            let starts = self.starts
            let bytes = self.bytes
            func eachTrigram(_ body: (_ pair: Int, _ third: UInt8, _ rank: UInt32) -> Void) {
                bytes.withUnsafeBufferPointer { bytes in
                    starts.withUnsafeBufferPointer { starts in
                        entryRank.withUnsafeBufferPointer { entryRank in
                            for i in 0..<entryRank.count {
                                let s = Int(starts[i])
                                let e = Int(starts[i + 1]) - 1
                                guard e - s >= 3 else { continue }
                                let rank = entryRank[i]
                                for k in s...(e - 3) {
                                    body(Int(bytes[k]) << 8 | Int(bytes[k + 1]), bytes[k + 2], rank)
                                }
                            }
                        }
                    }
                }
            }
            bucketStarts.withUnsafeMutableBufferPointer { counts in
                eachTrigram { pair, _, _ in counts[pair + 1] += 1 }
            }
            for b in 0..<(1 << 16) { bucketStarts[b + 1] += bucketStarts[b] }
            var keys: [UInt32] = []
            var keyStarts: [UInt32] = []
            var count = 0  // postings emitted so far
            var entries: [UInt32] = []
            var low = 0
            while low < 1 << 16 {
                var high = low + 1  // buckets low..<high: at least one, at most `chunk` occurrences beyond it
                while high < 1 << 16, bucketStarts[high + 1] - bucketStarts[low] <= chunk { high += 1 }
                let base = bucketStarts[low]
                defer { low = high }
                guard bucketStarts[high] > base else { continue }
                entries.removeAll(keepingCapacity: true)
                entries.append(contentsOf: repeatElement(0, count: bucketStarts[high] - base))
                var fill = bucketStarts[low..<high].map { $0 - base }
                entries.withUnsafeMutableBufferPointer { entries in
                    fill.withUnsafeMutableBufferPointer { fill in
                        eachTrigram { pair, third, rank in
                            guard pair >= low, pair < high else { return }
                            entries[fill[pair - low]] = UInt32(third) << 24 | rank
                            fill[pair - low] += 1
                        }
                    }
                }
                var written = 0  // postings of this run, written over the entries already read
                for b in low..<high where bucketStarts[b] < bucketStarts[b + 1] {
                    let range = (bucketStarts[b] - base)..<(bucketStarts[b + 1] - base)
                    entries[range].sort()
                    var previous: UInt32?
                    for j in range {
                        let entry = entries[j]
                        guard entry != previous else { continue }
                        let key = UInt32(b) << 8 | entry >> 24
                        if keys.last != key {
                            keys.append(key)
                            keyStarts.append(UInt32(count + written))
                        }
                        entries[written] = entry & 0xFF_FFFF
                        written += 1
                        previous = entry
                    }
                }
                entries.withUnsafeBufferPointer { emit(UnsafeBufferPointer(rebasing: $0[0..<written])) }
                count += written
            }
            keyStarts.append(UInt32(count))
            return (keys, keyStarts)
        }

        /// `bucketedPostings` for any rank: (trigram << 32 | rank) pairs sorted, all in memory.
        func sortedPostings(order: [UInt32], rank: [UInt32]) -> Postings {
            var postings: [UInt32] = []
            let (keys, keyStarts) = sortedPostings(order: order, rank: rank) { postings.append(contentsOf: $0) }
            return (keys, keyStarts, postings)
        }

        func sortedPostings(order: [UInt32], rank: [UInt32], emit: (UnsafeBufferPointer<UInt32>) -> Void)
            -> (keys: [UInt32], keyStarts: [UInt32])
        {
            var pairs: [UInt64] = []
            pairs.reserveCapacity(bytes.count)
            for (position, i) in order.enumerated() {
                let s = Int(starts[Int(i)])
                let e = Int(starts[Int(i) + 1]) - 1
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
            postings.withUnsafeBufferPointer { emit($0) }
            return (keys, keyStarts)
        }

        /// The entries' indexes sorted by name (bytewise), equal names in insertion order. Each name's first 8 bytes
        /// (big-endian, zero-padded) decide most comparisons as one integer comparison; equal prefixes compare the
        /// names (a shorter name that is a prefix of a longer one sorts first either way).
        private func sortedOrder(_ n: Int) -> [UInt32] {
            bytes.withUnsafeBufferPointer { all in
                func line(_ i: Int) -> UnsafeBufferPointer<UInt8> {
                    UnsafeBufferPointer(rebasing: all[Int(starts[i])..<(Int(starts[i + 1]) - 1)])
                }
                var keyed: [(prefix: UInt64, index: UInt32)] = (0..<n).map { i in
                    let name = line(i)
                    var prefix: UInt64 = 0
                    for k in 0..<8 { prefix = prefix << 8 | UInt64(k < name.count ? name[k] : 0) }
                    return (prefix, UInt32(i))
                }
                keyed.sort { a, b in
                    if a.prefix != b.prefix { return a.prefix < b.prefix }
                    let c = NameTable.compare(line(Int(a.index)), line(Int(b.index)))
                    return c != 0 ? c < 0 : a.index < b.index
                }
                return keyed.map(\.index)
            }
        }

        /// The positions `0..<lengths.count` ordered by (length, position): a counting sort by length (positions go in
        /// ascending, so equal lengths keep their order).
        static func lengthOrder(_ lengths: [UInt32]) -> [UInt32] {
            let longest = Int(lengths.max() ?? 0)
            var next = [Int](repeating: 0, count: longest + 2)
            for length in lengths { next[Int(length) + 1] += 1 }
            for l in 0...longest { next[l + 1] += next[l] }
            var result = [UInt32](repeating: 0, count: lengths.count)
            for (position, length) in lengths.enumerated() {
                result[next[Int(length)]] = UInt32(position)
                next[Int(length)] += 1
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
