/// A count-min sketch of request counts (4 rows of saturating 4-bit counts, kept in bytes), for ``PageCache``'s
/// admission rule: how often a key was requested lately, never under-estimated, in a few KiB whatever the number of
/// keys. Every `10 × width` increments all counts are halved, so that old popularity fades.
struct FrequencySketch {
    private var counts: [UInt8]
    private let widthBits: Int
    private var additions = 0
    private let period: Int

    private static let seeds: [UInt64] = [
        0x9E37_79B9_7F4A_7C15, 0xC2B2_AE3D_27D4_EB4F, 0x1656_67B1_9E37_79F9, 0xD6E8_FEB8_6659_FD93,
    ]

    /// A sketch sized for about `expectedEntries` distinct hot keys (at least 256 counts per row).
    init(expectedEntries: Int) {
        var bits = 8
        while 1 << bits < expectedEntries * 2, bits < 20 { bits += 1 }
        widthBits = bits
        counts = [UInt8](repeating: 0, count: 4 << bits)
        period = 10 << bits
    }

    private func slot(_ hash: Int, row: Int) -> Int {
        let mixed = UInt64(bitPattern: Int64(hash)) &* Self.seeds[row]
        return row << widthBits | Int(truncatingIfNeeded: mixed >> UInt64(64 - widthBits))
    }

    /// The (over-)estimated count of `hash`, 0...15.
    func estimate(_ hash: Int) -> Int {
        var least = UInt8.max
        for row in 0..<4 { least = min(least, counts[slot(hash, row: row)]) }
        return Int(least)
    }

    /// Counts one more request of `hash`.
    mutating func increment(_ hash: Int) {
        for row in 0..<4 {
            let at = slot(hash, row: row)
            if counts[at] < 15 { counts[at] += 1 }
        }
        additions += 1
        if additions >= period {
            additions = 0
            for k in counts.indices { counts[k] >>= 1 }
        }
    }
}
