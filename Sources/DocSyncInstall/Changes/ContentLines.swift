import DocSyncSupport

#if canImport(Glibc)
    import Glibc
#endif

/// One section of a content record (`VersionContent`) while it is built: its lines in a `RecordSorter` (no array or
/// string per line; with a spill folder, sorted runs in a scratch file there, so a version of 300,000 pages costs a
/// few MiB whatever its size), sorted and written without duplicates.
final class ContentLines {
    private let sorter: RecordSorter
    /// Lines are sorted by the bytes from this offset on (the rest of the line breaks ties).
    let keyOffset: Int

    init(keyOffset: Int = 0, spillingInto directory: SafeDirectory? = nil) {
        self.keyOffset = keyOffset
        sorter = RecordSorter(runBytes: Self.runBytes, spillingInto: directory) { a, b in
            let byKey = Self.compare(a, b, from: keyOffset)
            return byKey != 0 ? byKey < 0 : Self.compare(a, b, from: 0) < 0
        }
    }

    /// Lines sorted in memory at once: a section's runs are merged through 64 KiB windows, so 2 MiB runs hold less
    /// while two sections and the derived index are built at the same time, for a few more windows when merging.
    static let runBytes = 2 << 20

    var count: Int { sorter.count }

    /// Spills the lines appended so far and frees their buffer (`RecordSorter.spillBuffered`): this section is
    /// complete, and the next one is built while it waits to be written.
    func seal() throws(SystemError) { try sorter.spillBuffered() }

    /// Appends one line (without its newline).
    func append<Line: Sequence<UInt8>>(_ line: Line) throws(SystemError) { try sorter.append(line) }

    /// The lines sorted (by key, then whole line) with repeated lines written once, each ending in a newline.
    func write(sortedTo out: ContentWriter) throws(SystemError) {
        var previous: [UInt8] = []
        var first = true
        try sorter.forEach { (line) throws(SystemError) in
            if !first, previous.withUnsafeBytes({ Self.compare($0, line, from: 0) == 0 }) { return }
            first = false
            previous.removeAll(keepingCapacity: true)
            previous.append(contentsOf: line)
            try out.write(line)
            try out.write(CollectionOfOne(UInt8(ascii: "\n")))
        }
    }

    /// memcmp order of the bytes from `offset` on (a line shorter than `offset` has nothing there).
    private static func compare(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer, from offset: Int) -> Int32 {
        let la = a.count - offset
        let lb = b.count - offset
        let shorter = min(la, lb)
        let result = shorter <= 0 ? 0 : memcmp(a.baseAddress! + offset, b.baseAddress! + offset, shorter)
        return result != 0 ? result : la < lb ? -1 : la > lb ? 1 : 0
    }
}
