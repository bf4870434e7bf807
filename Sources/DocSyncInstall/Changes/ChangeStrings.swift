#if canImport(Glibc)
    import Glibc
#endif

/// The text a run of change log lines repeats, made into `String`s once: each docset's name, and the side its last
/// record installed (the next record's `from` side is that `to` side, byte for byte). Reading a whole log through
/// one of these makes one new `String` per record (its new version folder) instead of five; every other field shares
/// the storage of one made before. Only fields without `%` are shared (an escaped field is unescaped anew).
struct ChangeStrings {
    /// A docset seen in this run: its name, and the side its last record installed.
    private struct Docset {
        var name: String
        var last: ChangeRecord.Side?
    }

    private var docsets: [Docset] = []
    /// The index in `docsets` of the name with each hash (a second name with the same hash is not shared): an
    /// open-addressed table of (hash, index + 1) pairs, 0 for an empty place, at most half full. Not a
    /// `[UInt64: Int]`: a `Dictionary`'s first use with a key type checks the key's `Hashable` conformance against
    /// every conformance record in the binary (#35: ~0.1 ms of `changes --since`'s start-up, a fifth of its work).
    private var table: [(hash: UInt64, index: Int)] = []

    /// The docset's name and its slot (nil when its name is not shared); nil when the field is not valid text.
    mutating func docset(_ bytes: UnsafeBufferPointer<UInt8>) -> (name: String, slot: Int?)? {
        guard !bytes.contains(UInt8(ascii: "%")) else { return ChangeRecord.unescape(bytes).map { ($0, nil) } }
        let hash = Self.hash(bytes)
        if let slot = find(hash) {
            let name = docsets[slot].name
            return Self.equal(name, bytes) ? (name, slot) : (String(decoding: bytes, as: UTF8.self), nil)
        }
        let name = String(decoding: bytes, as: UTF8.self)
        insert(hash, docsets.count)
        docsets.append(Docset(name: name, last: nil))
        return (name, docsets.count - 1)
    }

    /// The index stored for `hash`, if any.
    private func find(_ hash: UInt64) -> Int? {
        guard !table.isEmpty else { return nil }
        let mask = table.count - 1
        var place = Int(truncatingIfNeeded: hash) & mask
        while table[place].index != 0 {
            if table[place].hash == hash { return table[place].index - 1 }
            place = (place + 1) & mask
        }
        return nil
    }

    /// Stores `index` for `hash` (not in the table yet), doubling the table to keep it at most half full.
    private mutating func insert(_ hash: UInt64, _ index: Int) {
        if (docsets.count + 1) * 2 > table.count {
            let old = table
            table = Array(repeating: (0, 0), count: max(64, table.count * 2))
            for entry in old where entry.index != 0 { place(entry) }
        }
        place((hash, index + 1))
    }

    private mutating func place(_ entry: (hash: UInt64, index: Int)) {
        let mask = table.count - 1
        var place = Int(truncatingIfNeeded: entry.hash) & mask
        while table[place].index != 0 { place = (place + 1) & mask }
        table[place] = entry
    }

    /// A side from its two fields (`.some(nil)`: both empty, no side; nil: not valid text), sharing the strings of
    /// the side the docset's last record installed when the bytes are the same.
    mutating func side(slot: Int?, version: UnsafeBufferPointer<UInt8>, folder: UnsafeBufferPointer<UInt8>)
        -> ChangeRecord.Side??
    {
        if folder.isEmpty { return .some(nil) }
        if let slot, let last = docsets[slot].last, Self.equal(last.folder, folder), Self.equal(last.version, version) {
            return .some(last)
        }
        guard let version = ChangeRecord.unescape(version), let folder = ChangeRecord.unescape(folder) else {
            return nil
        }
        return .some(ChangeRecord.Side(version: version, folder: folder))
    }

    /// Remembers the side a record of the docset in `slot` installed (nil: it removed the docset).
    mutating func installed(_ side: ChangeRecord.Side?, slot: Int?) {
        guard let slot else { return }
        docsets[slot].last = side
    }

    /// Whether `text`'s UTF-8 is `bytes` (a field without `%`: its text is its bytes).
    private static func equal(_ text: String, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard text.utf8.count == bytes.count, !bytes.contains(UInt8(ascii: "%")) else { return false }
        if bytes.isEmpty { return true }
        let same = text.utf8.withContiguousStorageIfAvailable {
            memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0
        }
        if let same { return same }
        return text.utf8.elementsEqual(bytes)
    }

    /// FNV-1a over the bytes.
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return hash
    }
}
