/// A record's place in a tarix archive, stored in the index's `hash` column as `"<block> <offset> <length>"`: its
/// first 512-byte block in the uncompressed tar, the compressed offset of the flush point before it, and its
/// length in blocks (GNU long-name and pax headers included).
package struct TarixLocation: Sendable, Equatable, CustomStringConvertible {
    package let block: Int64
    package let offset: Int64
    package let length: Int64

    package init(block: Int64, offset: Int64, length: Int64) {
        self.block = block
        self.offset = offset
        self.length = length
    }

    /// The `hash` column's text.
    package var description: String { "\(block) \(offset) \(length)" }

    /// Parses the column strictly: three non-negative decimal numbers separated by single spaces, length ≥ 1.
    package init?(hash: String) {
        let fields = hash.utf8.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        guard fields.count == 3 else { return nil }
        var numbers: [Int64] = []
        for field in fields {
            guard !field.isEmpty, field.count <= 18, field.allSatisfy({ (48...57).contains($0) }) else { return nil }
            numbers.append(field.reduce(0) { $0 * 10 + Int64($1 - 48) })
        }
        guard numbers[2] >= 1 else { return nil }
        self.init(block: numbers[0], offset: numbers[1], length: numbers[2])
    }
}
