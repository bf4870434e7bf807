/// The scans over names by rank (shortest first): the fuzzy and short-substring candidates are the names whose
/// folded character mask covers the query's, read from the in-memory `lengthMasks` 8 at a time.
extension NameTable {
    /// The ranks of the names of length `group` (0...255), or of 256 bytes and more (`lengthGroups`).
    func ranks(ofGroup group: Int) -> Range<Int> { lengthStarts[group]..<lengthStarts[group + 1] }

    /// The length of the name at `rank`, which is in `group`: the group itself below `lengthGroups` (no read).
    func length(rank: Int, group: Int) -> Int {
        group < Self.lengthGroups ? group : length(Int(order[rank]))
    }

    /// The sorted position of the name at `rank`.
    func position(rank: Int) -> Int { Int(order[rank]) }

    /// Calls `visit(rank, group)` for every name of `minimumLength` bytes or more whose folded mask covers `wanted`,
    /// shortest first; before each length group asks `goOn(length)` (the group's length, 256 for the last: a lower
    /// bound) and stops at the first `false`.
    func maskScan(
        _ wanted: UInt32, minimumLength: Int, goOn: (Int) -> Bool, _ visit: (_ rank: Int, _ group: Int) -> Void
    ) {
        guard count > 0 else { return }
        let splat = SIMD8<UInt32>(repeating: wanted)
        lengthMasks.withUnsafeBufferPointer { masks in
            let base = UnsafeRawPointer(masks.baseAddress!)
            for group in min(minimumLength, Self.lengthGroups)...Self.lengthGroups {
                let range = ranks(ofGroup: group)
                if range.isEmpty { continue }
                guard goOn(group) else { return }
                var k = range.lowerBound
                while k + 8 <= range.upperBound {
                    let block = base.loadUnaligned(fromByteOffset: 4 * k, as: SIMD8<UInt32>.self)
                    let hit = (block & splat) .== splat
                    if any(hit) {
                        for j in 0..<8 where hit[j] { visit(k + j, group) }
                    }
                    k += 8
                }
                while k < range.upperBound {
                    if masks[k] & wanted == wanted { visit(k, group) }
                    k += 1
                }
            }
        }
    }

    /// Whether `needle` is a subsequence of `line` (its bytes in order, gaps allowed).
    static func isSubsequence(_ needle: UnsafeBufferPointer<UInt8>, of line: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !needle.isEmpty else { return true }
        var k = 0
        let wanted = needle.count
        for byte in line where byte == needle[k] {
            k += 1
            if k == wanted { return true }
        }
        return false
    }
}
