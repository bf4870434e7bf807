/// The scan masks of several docsets' names (`NameTable.scanMask`, 8 bytes per entry by rank), compared where they
/// lie in each docset's mapping: the fuzzy and short-substring candidates are the names whose mask covers the
/// query's.
///
/// The masks are the one area of `names.bin` that searching reads through the mapping rather than with `pread`: a
/// query whose whole name has few matches scans the mask of every longer name (40–80 MB over ten million entries),
/// and copying them (`pread`'s copy and page-cache lookups were two thirds of such a query) cost more than the scan.
/// Their pages stay mapped between queries (`NameTable.release` keeps them): file pages, in the page cache, never
/// anonymous memory, 8 bytes an entry at most. A table whose masks did not fit its index's `MaskBudget` has its
/// masks read with `pread`, `window` masks at a time, into one buffer reused for every docset: none of its pages
/// mapped.
final class MaskWalk {
    /// Masks read per `pread` for a table that does not keep its masks mapped (64 KiB).
    static let window = 8192
    private let tables: [NameTable]
    /// The window's buffer, allocated at the first table that needs it.
    private var buffer: UnsafeMutableRawPointer?

    /// The walk over `tables`; reads nothing yet.
    init(tables: [NameTable]) {
        self.tables = tables
    }

    deinit {
        buffer?.deallocate()
    }

    /// Calls `visit(rank)` for every rank in `range` of docset `d` whose scan mask covers `wanted`, in rank order.
    func scan(_ d: Int, _ wanted: UInt64, ranks range: Range<Int>, _ visit: (_ rank: Int) -> Void) {
        guard !range.isEmpty else { return }
        let table = tables[d]
        // Stored little-endian: on a big-endian machine the loaded masks are byte-swapped, and so is what they must
        // cover (a byte swap moves bits, so `m & w == w` holds for the swapped pair exactly when for the pair).
        #if _endian(big)
            let wanted = wanted.byteSwapped
        #endif
        guard !table.keepsMasks else {
            let masks = table.base + table.areas.lengthMasks + 8 * range.lowerBound
            Self.scan(masks, from: range.lowerBound, range.count, wanted, visit)
            return
        }
        let window =
            buffer
            ?? UnsafeMutableRawPointer.allocate(byteCount: 8 * Self.window, alignment: MemoryLayout<UInt64>.alignment)
        buffer = window
        var first = range.lowerBound
        while first < range.upperBound {
            let n = min(Self.window, range.upperBound - first)
            table.read(table.areas.lengthMasks + 8 * first, 8 * n, into: window)
            Self.scan(UnsafeRawPointer(window), from: first, n, wanted, visit)
            first += n
        }
    }

    /// `visit(first + k)` for each of the `n` masks at `masks` that covers `wanted`, compared 8 at a time.
    private static func scan(
        _ masks: UnsafeRawPointer, from first: Int, _ n: Int, _ wanted: UInt64, _ visit: (_ rank: Int) -> Void
    ) {
        let splat = SIMD8<UInt64>(repeating: wanted)
        var k = 0
        while k + 8 <= n {
            let block = masks.loadUnaligned(fromByteOffset: 8 * k, as: SIMD8<UInt64>.self)
            let hit = (block & splat) .== splat
            if any(hit) {
                for j in 0..<8 where hit[j] { visit(first + k + j) }
            }
            k += 8
        }
        while k < n {
            if masks.loadUnaligned(fromByteOffset: 8 * k, as: UInt64.self) & wanted == wanted { visit(first + k) }
            k += 1
        }
    }
}
