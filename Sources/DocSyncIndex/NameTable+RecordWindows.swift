extension NameTable {
    /// Places display records spilled in insertion order (`Builder(spillDirectory:)`) in sorted order, through a
    /// window of the output: per window, one sequential read of the scratch file copies every record, or the part
    /// of one, that falls in it (a record longer than a window or a block is copied in pieces). Memory: the window
    /// and one block, and 4 bytes an entry for where its record goes; work: one read of the records per window (4
    /// at 120k entries with 2 MiB windows), at most `maxPasses` (the window widens past 16 × 2 MiB of records,
    /// about 450k entries: a sixteenth of the records, beside the names and per-entry arrays that grow anyway).
    enum RecordWindows {
        /// The smallest window and block accepted: the passes are the records' bytes over the window, each reading
        /// the file in blocks, so byte-sized windows and blocks make the work quadratic in the records' bytes.
        static let minimumBytes = 4096
        /// Reads of the scratch file at most, whatever the entry count.
        static let maxPasses = 16
        /// The largest piece of a window handed to `emit` at once.
        static let emitBytes = 128 << 10

        /// Hands the records of `order` to `emit`, one window at a time, in order (`recordStarts[i] ..<
        /// recordStarts[i + 1]`: entry `i`'s record in `file`).
        static func copy(
            order: [UInt32], recordStarts: [UInt32], from file: ScratchFile, windowBytes: Int, maxPasses: Int,
            emit: (ArraySlice<UInt8>) -> Void
        ) throws(DocsetIndexError) {
            let n = order.count
            let total = Int(recordStarts[n])
            guard total > 0 else { return }
            var target = [UInt32](repeating: 0, count: n)  // each entry's record's offset in the output
            var offset: UInt32 = 0
            for i in order {
                target[Int(i)] = offset
                offset += recordStarts[Int(i) + 1] - recordStarts[Int(i)]
            }
            let passes = max(1, maxPasses)
            let width = min(max(windowBytes, minimumBytes, (total + passes - 1) / passes), total)
            var window = [UInt8](repeating: 0, count: width)
            var low = 0
            while low < total {
                let high = min(low + width, total)
                var first = 0  // the first entry whose record may still reach into this block or later ones
                try file.blocks { blockStart, block in
                    let blockEnd = blockStart + block.count
                    while first < n, Int(recordStarts[first + 1]) <= blockStart { first += 1 }
                    var i = first
                    while i < n, Int(recordStarts[i]) < blockEnd {
                        let start = Int(recordStarts[i])
                        let from = max(start, blockStart)
                        let to = min(Int(recordStarts[i + 1]), blockEnd)
                        let out = Int(target[i]) + (from - start)  // where byte `from` goes in the output
                        let lo = max(out, low)
                        let hi = min(out + (to - from), high)
                        if lo < hi {
                            let source = block.startIndex + (from - blockStart) + (lo - out)
                            window.replaceSubrange(
                                (lo - low)..<(hi - low), with: block[source..<(source + hi - lo)])
                        }
                        i += 1
                    }
                }
                // Handed out in pieces of at most a block: the writer's buffer never grows to a window.
                for piece in stride(from: 0, to: high - low, by: emitBytes) {
                    emit(window[piece..<min(piece + emitBytes, high - low)])
                }
                low = high
            }
        }
    }
}
