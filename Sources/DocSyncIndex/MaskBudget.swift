import Synchronization

/// How many bytes of scan masks the docsets of one `DocsetIndex` may keep mapped between searches.
///
/// The scans compare masks in place in the mapping (`MaskWalk`), and a docset whose masks fit the budget keeps their
/// pages mapped (`NameTable.release` leaves them): the fastest scan, but those file pages count in the process's
/// resident set (8 bytes an entry: 16 MB over two million entries). A docset opened when the budget is spent reads
/// its masks with `pread` through a small reused window instead, mapping none of them. The library's default is no
/// limit (its memory goal counts anonymous memory, which neither way uses), and then the rank names stay mapped too
/// (`NameTable.keepsNames`: about as many bytes again); `serve`, whose goal is its whole resident set, sets one.
final class MaskBudget: Sendable {
    private let remaining: Mutex<Int>
    /// Whether the budget has no limit (the library's default): then a table keeps its rank names mapped too
    /// (`NameTable.keepsNames`); a bounded budget (`serve`'s) keeps masks only.
    let unlimited: Bool

    /// A budget of `bytes` (`.max`: unlimited).
    init(bytes: Int) {
        remaining = Mutex(max(0, bytes))
        unlimited = bytes == .max
    }

    /// Takes `bytes` from the budget: false (taking nothing) when fewer remain.
    func take(_ bytes: Int) -> Bool {
        remaining.withLock { left in
            guard bytes <= left else { return false }
            if left != .max { left -= bytes }
            return true
        }
    }

    /// Gives back `bytes` taken earlier (a table that kept its masks is closed).
    func giveBack(_ bytes: Int) {
        remaining.withLock { left in
            if left != .max { left += bytes }
        }
    }
}
