import DocSyncSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Sorts byte records of any number in bounded memory (an external merge sort): records collect in one buffer; with
/// a spill folder, every `runBytes` of them are sorted and appended to an anonymous scratch file there
/// (`SpillFile`) as a run, and reading merges the runs, each through a small window. Memory: about `runBytes` plus
/// 8 bytes a buffered record plus one window a run — not the records' total. Without a spill folder everything
/// stays in memory (small inputs, tests). Records are read back in `order`; equal ones in no set order.
/// Used by one thread at a time; `forEach` may be called more than once.
final class RecordSorter {
    /// Whether the first record goes before the second.
    typealias Order = (UnsafeRawBufferPointer, UnsafeRawBufferPointer) -> Bool

    static let windowBytes = 64 << 10
    private let order: Order
    private let runBytes: Int
    private let directory: SafeDirectory?
    private var bytes: [UInt8] = []
    private var starts: [UInt32] = []
    private var sortedInMemory: [Range<Int>]?
    private var spill: SpillFile?
    private var runs: [Range<Int>] = []
    /// Records appended so far.
    private(set) var count = 0

    init(runBytes: Int = 4 << 20, spillingInto directory: SafeDirectory?, order: @escaping Order) {
        self.runBytes = max(runBytes, 1)
        self.directory = directory
        self.order = order
    }

    /// Appends one record (a run is written out when the buffer is full).
    func append(_ record: some Sequence<UInt8>) throws(SystemError) {
        if directory != nil, bytes.isEmpty, bytes.capacity < runBytes { bytes.reserveCapacity(runBytes + (4 << 10)) }
        starts.append(UInt32(bytes.count))
        bytes.append(contentsOf: record)
        count += 1
        sortedInMemory = nil
        if directory != nil, bytes.count >= runBytes { try writeRun() }
    }

    /// With a spill folder, writes the records buffered so far out as a run and frees the buffer, unless they are
    /// fewer than a window's bytes and nothing was spilled yet: what a finished sorter holds while another one
    /// fills (the pages of a content record while its entries are read).
    func spillBuffered() throws(SystemError) {
        guard directory != nil, !starts.isEmpty, !runs.isEmpty || bytes.count >= Self.windowBytes else { return }
        try writeRun()
        bytes = []
        starts = []
    }

    /// Hands every record to `body` in order.
    func forEach(_ body: (UnsafeRawBufferPointer) throws(SystemError) -> Void) throws(SystemError) {
        if runs.isEmpty {
            let ranges = sortedInMemory ?? sortedRanges()
            sortedInMemory = ranges
            var failure: SystemError?
            bytes.withUnsafeBytes { raw in
                for range in ranges {
                    do throws(SystemError) { try body(UnsafeRawBufferPointer(rebasing: raw[range])) } catch {
                        failure = error
                        return
                    }
                }
            }
            if let failure { throw failure }
            return
        }
        if !starts.isEmpty { try writeRun() }
        bytes = []  // every record is in the scratch file now
        starts = []
        try merge(body)
    }

    private func sortedRanges() -> [Range<Int>] {
        var ranges = [Range<Int>]()
        ranges.reserveCapacity(starts.count)
        for (index, start) in starts.enumerated() {
            let end = index + 1 < starts.count ? Int(starts[index + 1]) : bytes.count
            ranges.append(Int(start)..<end)
        }
        let order = self.order
        bytes.withUnsafeBytes { raw in
            ranges.sort { order(UnsafeRawBufferPointer(rebasing: raw[$0]), UnsafeRawBufferPointer(rebasing: raw[$1])) }
        }
        return ranges
    }

    /// Sorts the buffered records and appends them to the scratch file as one run (each record: a 4-byte
    /// little-endian length, then its bytes).
    private func writeRun() throws(SystemError) {
        guard let directory else { return }
        let file: SpillFile
        if let spill {
            file = spill
        } else {
            file = try SpillFile(in: directory)
            spill = file
        }
        let ranges = sortedRanges()
        let start = file.count
        var failure: SystemError?
        bytes.withUnsafeBytes { raw in
            for range in ranges {
                do throws(SystemError) {
                    try file.append(length: UInt32(range.count))
                    try file.append(UnsafeRawBufferPointer(rebasing: raw[range]))
                } catch {
                    failure = error
                    return
                }
            }
        }
        if let failure { throw failure }
        runs.append(start..<file.count)
        bytes.removeAll(keepingCapacity: true)
        starts.removeAll(keepingCapacity: true)
        sortedInMemory = nil
    }

    private func merge(_ body: (UnsafeRawBufferPointer) throws(SystemError) -> Void) throws(SystemError) {
        guard let spill else { return }
        var cursors: [RunCursor] = []
        for run in runs {
            let cursor = RunCursor(run, windowBytes: Self.windowBytes)
            if try cursor.advance(spill) { cursors.append(cursor) }
        }
        while !cursors.isEmpty {
            var least = 0
            for index in cursors.indices.dropFirst() where order(cursors[index].record, cursors[least].record) {
                least = index
            }
            try body(cursors[least].record)
            if try !cursors[least].advance(spill) { cursors.remove(at: least) }
        }
    }
}

/// One run of a `RecordSorter`'s scratch file, read through a window that grows only for a record longer than it.
private final class RunCursor {
    private var offset: Int
    private let end: Int
    private var window: UnsafeMutableRawBufferPointer
    private var low = 0
    private var high = 0
    /// The current record (valid until the next `advance`).
    private(set) var record = UnsafeRawBufferPointer(start: nil, count: 0)

    init(_ run: Range<Int>, windowBytes: Int) {
        offset = run.lowerBound
        end = run.upperBound
        window = .allocate(byteCount: windowBytes, alignment: 8)
    }

    deinit { window.deallocate() }

    /// Moves to the next record; false at the end of the run.
    func advance(_ file: SpillFile) throws(SystemError) -> Bool {
        guard high > low || offset < end else { return false }
        try fill(4, from: file)
        var length: UInt32 = 0
        withUnsafeMutableBytes(of: &length) {
            $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: window[low..<low + 4]))
        }
        let count = Int(UInt32(littleEndian: length))
        try fill(4 + count, from: file)
        record = UnsafeRawBufferPointer(rebasing: window[low + 4..<low + 4 + count])
        low += 4 + count
        return true
    }

    /// Makes at least `needed` bytes available from `low` on.
    private func fill(_ needed: Int, from file: SpillFile) throws(SystemError) {
        if high - low >= needed { return }
        let kept = high - low
        if needed > window.count {
            let larger = UnsafeMutableRawBufferPointer.allocate(byteCount: needed, alignment: 8)
            larger.copyMemory(from: UnsafeRawBufferPointer(rebasing: window[low..<high]))
            window.deallocate()
            window = larger
        } else if low > 0 {
            memmove(window.baseAddress!, window.baseAddress! + low, kept)
        }
        low = 0
        high = kept
        while high < needed {
            let wanted = min(window.count - high, end - offset)
            let target = UnsafeMutableRawBufferPointer(start: window.baseAddress! + high, count: max(wanted, 0))
            let n = wanted > 0 ? try file.read(at: offset, into: target) : 0
            if n <= 0 { throw SystemError("read scratch file (ended early)", path: file.path, code: EIO) }
            offset += n
            high += n
        }
    }
}
