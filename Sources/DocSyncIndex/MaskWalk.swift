/// The scan masks of several docsets' names (`NameTable.scanMask`, 8 bytes per entry by rank), read with `pread` as
/// the length-ordered scans reach them: the fuzzy and short-substring candidates are the names whose mask covers
/// the query's.
///
/// The masks are not kept in memory (80 MB over ten million entries) and reading them maps no page. Each docset has
/// a window of `window` masks: the walk visits one length group of every docset, then the next length, and the
/// small groups of long names share one read per docset instead of one per group. A group larger than the window
/// is read in chunks of `chunk` masks.
final class MaskWalk {
    /// Masks buffered per docset (4 KiB).
    static let window = 512
    /// Masks read with one `pread` for a group larger than the window (128 KiB).
    static let chunk = 16_384
    private let tables: [NameTable]
    /// Per docset: the ranks whose masks its window holds.
    private var windowStart: [Int]
    private var windowEnd: [Int]
    private let windows: UnsafeMutablePointer<UInt64>
    private var large: UnsafeMutablePointer<UInt64>?

    /// The walk over `tables`; reads nothing yet.
    init(tables: [NameTable]) {
        self.tables = tables
        windowStart = Array(repeating: 0, count: tables.count)
        windowEnd = windowStart
        windows = .allocate(capacity: max(1, tables.count * Self.window))
    }

    deinit {
        windows.deallocate()
        large?.deallocate()
    }

    /// Calls `visit(rank)` for every rank in `range` of docset `d` whose scan mask covers `wanted`, in rank order.
    func scan(_ d: Int, _ wanted: UInt64, ranks range: Range<Int>, _ visit: (_ rank: Int) -> Void) {
        guard !range.isEmpty else { return }
        let slot = windows + Self.window * d
        if range.lowerBound >= windowStart[d], range.upperBound <= windowEnd[d] {
            Self.scan(slot + (range.lowerBound - windowStart[d]), from: range.lowerBound, range.count, wanted, visit)
            return
        }
        let table = tables[d]
        if range.count <= Self.window {
            let n = min(Self.window, table.count - range.lowerBound)
            read(table, from: range.lowerBound, n, into: slot)
            windowStart[d] = range.lowerBound
            windowEnd[d] = range.lowerBound + n
            Self.scan(slot, from: range.lowerBound, range.count, wanted, visit)
            return
        }
        let buffer = large ?? .allocate(capacity: Self.chunk)
        large = buffer
        var start = range.lowerBound
        while start < range.upperBound {
            let n = min(range.upperBound - start, Self.chunk)
            read(table, from: start, n, into: buffer)
            Self.scan(buffer, from: start, n, wanted, visit)
            start += n
        }
    }

    /// The masks of ranks `first..<first + n` of `table` into `buffer`.
    private func read(_ table: NameTable, from first: Int, _ n: Int, into buffer: UnsafeMutablePointer<UInt64>) {
        table.read(table.areas.lengthMasks + 8 * first, 8 * n, into: UnsafeMutableRawPointer(buffer))
        #if _endian(big)
            for k in 0..<n { buffer[k] = UInt64(littleEndian: buffer[k]) }
        #endif
    }

    /// `visit(first + k)` for each of the `n` masks at `masks` that covers `wanted`, compared 4 at a time.
    private static func scan(
        _ masks: UnsafePointer<UInt64>, from first: Int, _ n: Int, _ wanted: UInt64, _ visit: (_ rank: Int) -> Void
    ) {
        let splat = SIMD4<UInt64>(repeating: wanted)
        let base = UnsafeRawPointer(masks)
        var k = 0
        while k + 4 <= n {
            let block = base.loadUnaligned(fromByteOffset: 8 * k, as: SIMD4<UInt64>.self)
            let hit = (block & splat) .== splat
            if any(hit) {
                for j in 0..<4 where hit[j] { visit(first + k + j) }
            }
            k += 4
        }
        while k < n {
            if masks[k] & wanted == wanted { visit(first + k) }
            k += 1
        }
    }
}
