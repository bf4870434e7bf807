#if canImport(Glibc)
    import Glibc
#endif

/// One section of a content record (`VersionContent`) while it is built: its lines in one byte buffer with their
/// start offsets (no array or string per line: a version of 300,000 pages costs its bytes, not 300,000 objects),
/// sorted and written without duplicates.
struct ContentLines {
    private var bytes: [UInt8] = []
    private var starts: [Int] = []
    /// Lines are sorted by the bytes from this offset on (the rest of the line breaks ties).
    let keyOffset: Int

    init(keyOffset: Int = 0) { self.keyOffset = keyOffset }

    var count: Int { starts.count }
    var byteCount: Int { bytes.count + starts.count }

    /// Appends one line (without its newline).
    mutating func append<Line: Sequence<UInt8>>(_ line: Line) {
        starts.append(bytes.count)
        bytes += line
    }

    /// The lines sorted (by key, then whole line) with repeated lines written once, each ending in a newline.
    func write(sortedTo out: inout [UInt8]) {
        let ends = starts.dropFirst() + [bytes.count]
        let ranges = zip(starts, ends).map { $0..<$1 }
        bytes.withUnsafeBufferPointer { buffer in
            func compare(_ a: Range<Int>, _ b: Range<Int>, from offset: Int) -> Int32 {
                let la = a.count - offset
                let lb = b.count - offset
                let shorter = min(la, lb)
                let result =
                    shorter <= 0
                    ? 0
                    : memcmp(
                        buffer.baseAddress! + a.lowerBound + offset, buffer.baseAddress! + b.lowerBound + offset,
                        shorter)
                return result != 0 ? result : la < lb ? -1 : la > lb ? 1 : 0
            }
            let order = ranges.sorted { a, b in
                let byKey = compare(a, b, from: keyOffset)
                return byKey != 0 ? byKey < 0 : compare(a, b, from: 0) < 0
            }
            var previous: Range<Int>?
            for range in order {
                if let previous, compare(previous, range, from: 0) == 0 { continue }
                out += buffer[range]
                out.append(UInt8(ascii: "\n"))
                previous = range
            }
        }
    }
}
