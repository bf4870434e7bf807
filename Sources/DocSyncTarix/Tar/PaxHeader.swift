/// The pax extended-header keys a tarix index cares about (`path`, `linkpath`, `size`, GNU sparse markers).
struct PaxHeader: Equatable {
    var path: [UInt8]?
    var linkPath: [UInt8]?
    var size: Int64?
    var sparse = false

    /// Parses `"<length> <key>=<value>\n"` records over `base`; nil if any record is malformed.
    static func parse(_ data: [UInt8], into base: PaxHeader) -> PaxHeader? {
        var header = base
        var at = 0
        while at < data.count {
            if data[at] == 0 { break }  // some writers pad with NULs
            var length = 0
            var cursor = at
            while cursor < data.count, data[cursor] != UInt8(ascii: " ") {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(data[cursor]), length < 1 << 20 else {
                    return nil
                }
                length = length * 10 + Int(data[cursor] - UInt8(ascii: "0"))
                cursor += 1
            }
            guard cursor < data.count, length > cursor - at + 1, at + length <= data.count,
                data[at + length - 1] == UInt8(ascii: "\n")
            else { return nil }
            let record = data[(cursor + 1)..<(at + length - 1)]
            guard let equals = record.firstIndex(of: UInt8(ascii: "=")) else { return nil }
            let key = String(decoding: record[record.startIndex..<equals], as: UTF8.self)
            let value = Array(record[(equals + 1)...])
            switch key {
            case "path": header.path = value.isEmpty ? nil : value
            case "linkpath": header.linkPath = value.isEmpty ? nil : value
            case "size":
                if value.isEmpty {
                    header.size = nil
                } else {
                    guard value.count <= 18, let n = Int64(String(decoding: value, as: UTF8.self)), n >= 0 else {
                        return nil
                    }
                    header.size = n
                }
            default:
                if key.hasPrefix("GNU.sparse.") { header.sparse = true }
            }
            at += length
        }
        return header
    }
}
