/// The records and meta areas of `names.bin`.
///
/// ```
/// record: name length, path length, fragment length (UInt32 each; 0xFFFFFFFF: no fragment), then the name as the
///         docset spells it, the page path and the fragment, UTF-8
/// meta:   pairs of strings, each a UInt32 length and UTF-8 bytes: "layout", "source", "format", "entries",
///         "docset" with their values, then "type:<id>" and the normalised type name for each type id
/// ```
extension NameTable {
    static let layoutVersion = "7"
    private static let noFragment = UInt32.max

    /// One entry as a hit shows it.
    struct Record: Equatable {
        var name: String
        var type: UInt16
        var location: EntryLocation
    }

    /// The record of the entry at sorted position `i`; nil when the file is damaged there. Read with `pread`, so no
    /// page of the mapping is touched.
    func record(_ i: Int) -> Record? {
        var bounds: [UInt32] = []
        read(areas.records + 4 * i, into: &bounds, count: 2)
        let start = Int(bounds[0])
        let end = Int(bounds[1])
        guard end - start >= 12, end <= recordBytes.count else { return nil }
        var copy = [UInt8](repeating: 0, count: end - start)
        copy.withUnsafeMutableBytes { read(areas.recordArea + start, end - start, into: $0.baseAddress!) }
        return copy.withUnsafeBytes { parseRecord($0, type: readType(i)) }
    }

    private func parseRecord(_ bytes: UnsafeRawBufferPointer, type: UInt16) -> Record? {
        func length(_ k: Int) -> UInt32 {
            UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 4 * k, as: UInt32.self))
        }
        let name = Int(length(0))
        let path = Int(length(1))
        let fragment = length(2) == Self.noFragment ? nil : Int(length(2))
        guard 12 + name + path + (fragment ?? 0) == bytes.count else { return nil }
        func text(_ from: Int, _ count: Int) -> String {
            String(decoding: UnsafeRawBufferPointer(rebasing: bytes[(12 + from)..<(12 + from + count)]), as: UTF8.self)
        }
        return Record(
            name: text(0, name), type: type,
            location: EntryLocation(path: text(name, path), fragment: fragment.map { text(name + path, $0) }))
    }

    /// The meta area as key → value; nil when it is damaged.
    func meta() -> [String: String]? {
        var out: [String: String] = [:]
        var cursor = 0
        func string() -> String? {
            guard cursor + 4 <= metaBytes.count else { return nil }
            let n = Int(UInt32(littleEndian: metaBytes.loadUnaligned(fromByteOffset: cursor, as: UInt32.self)))
            guard n <= metaBytes.count - cursor - 4 else { return nil }
            defer { cursor += 4 + n }
            let text = UnsafeRawBufferPointer(rebasing: metaBytes[(cursor + 4)..<(cursor + 4 + n)])
            return String(decoding: text, as: UTF8.self)
        }
        while cursor < metaBytes.count {
            guard let key = string(), let value = string() else { return nil }
            out[key] = value
        }
        return out
    }

    /// The type names of `meta` by id: normalised (`type:<id>`), or as the index spells them (`prefix` `raw:`).
    static func typeNames(_ meta: [String: String], prefix: String = "type:") -> [UInt16: String] {
        var out: [UInt16: String] = [:]
        for (key, value) in meta where key.hasPrefix(prefix) {
            if let id = UInt16(key.dropFirst(prefix.count)) { out[id] = value }
        }
        return out
    }

    /// Appends one record to `out` (the builder's records area).
    static func appendRecord(name: String, location: EntryLocation, to out: inout [UInt8]) {
        let path = location.path.utf8
        let fragment = location.fragment?.utf8
        for n in [UInt32(name.utf8.count), UInt32(path.count), fragment.map { UInt32($0.count) } ?? noFragment] {
            withUnsafeBytes(of: n.littleEndian) { out += $0 }
        }
        out += name.utf8
        out += path
        if let fragment { out += fragment }
    }

    /// The meta area for `pairs` (in this order).
    static func metaArea(_ pairs: [(String, String)]) -> [UInt8] {
        var out: [UInt8] = []
        for (key, value) in pairs {
            for s in [key, value] {
                withUnsafeBytes(of: UInt32(s.utf8.count).littleEndian) { out += $0 }
                out += s.utf8
            }
        }
        return out
    }
}
