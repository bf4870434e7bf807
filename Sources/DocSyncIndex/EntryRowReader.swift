#if canImport(Glibc)
    import Glibc
#endif

/// Turns the rows of one docset's entries statement into ``DocsetEntry`` values, from the column bytes SQLite
/// holds: the name decoded once, the type looked up by its bytes (a docset has a few dozen raw types), the location
/// resolved by `EntryBytesResolver`, or by `EntryLocation` + `EntryResolver` when the fast path declines. Gives
/// exactly what `SourceIndex.read` + `EntryResolver` give for the same row.
struct EntryRowReader {
    private let resolver: EntryBytesResolver
    private let layout: DocsetLayout
    private let prefix: String
    private var types = TypeTable()

    /// A reader for the docset at `docsetPath` with `layout`.
    init(docsetPath: String, layout: DocsetLayout) {
        self.layout = layout
        prefix = EntryResolver.encodedPrefix(docsetPath: docsetPath)
        resolver = EntryBytesResolver(layout: layout, encodedDocsetPrefix: prefix)
    }

    /// The entry of `row`; nil for a row without a name or a path (skipped, as `SourceIndex.read` does), or, read
    /// through `CoreDataTables`, without a file or type (dropped by `entriesSQL`'s join).
    mutating func entry(_ row: RawEntryRow) -> DocsetEntry? {
        let batch = EntryBatch(entries: 1)
        return append(row, to: batch) ? batch.entry(0) : nil
    }

    /// Appends the entry of `row` to `batch`; false for a row ``entry(_:)`` skips.
    mutating func append(_ row: RawEntryRow, to batch: EntryBatch) -> Bool {
        if let tables = row.tables {
            let path: RawEntryRow.Column
            switch tables.path(row.statement) {
            case .missing, .null: return false
            case .bytes(let bytes): path = .bytes(bytes)
            }
            guard let type = tables.type(row.statement) else { return false }
            return append(row, type: type, path: path, to: batch)
        }
        let pathColumn = row.column(2)
        if case .null = pathColumn { return false }
        return append(row, type: nil, path: pathColumn, to: batch)
    }

    /// Appends the entry of `row` whose path is `pathColumn` (not NULL) and type `known` (nil: column 1).
    private mutating func append(
        _ row: RawEntryRow, type known: (raw: String, type: String)?, path pathColumn: RawEntryRow.Column,
        to batch: EntryBatch
    ) -> Bool {
        let name: EntryBatch.Span
        switch row.column(0) {
        case .null: return false
        case .bytes(let bytes):
            guard !bytes.isEmpty else { return false }
            // ASCII within the field limit is its own text; anything else as `RawEntryRow.string` decodes it.
            name =
                bytes.count <= SourceIndex.maxFieldBytes && EntryBytesResolver.isASCII(bytes)
                ? batch.append(bytes) : batch.append(RawEntryRow.string(bytes))
        case .number:
            name = batch.append(row.text(0) ?? "")
        }
        let rawType: String
        let type: String
        if let known {
            (rawType, type) = known
        } else {
            (rawType, type) = types.lookup(row)
        }
        let pathText: String
        if case .bytes(let path) = pathColumn {
            let fast: (page: EntryBatch.Span, fragment: EntryBatch.Span, url: EntryBatch.Span)?
            switch row.column(3) {
            case .null: fast = resolver.resolve(path: Self.cut(path), fragment: nil, into: batch)
            case .bytes(let fragment):
                fast = resolver.resolve(path: Self.cut(path), fragment: Self.cut(fragment), into: batch)
            case .number: fast = nil
            }
            if let fast {
                batch.add(
                    .init(
                        name: name, page: fast.page, fragment: fast.fragment, url: fast.url, rawType: rawType,
                        type: type))
                return true
            }
            pathText = RawEntryRow.string(path)
        } else {
            pathText = row.text(2) ?? ""
        }
        let location = EntryLocation(rawPath: pathText, rawFragment: row.text(3))
        let resolved = EntryResolver.resolve(location, layout: layout)
        batch.add(
            .init(
                name: name, page: batch.append(resolved.page),
                fragment: resolved.fragment.map { batch.append($0) } ?? EntryBatch.Span.absent,
                url: batch.append(resolved.urlString(encodedDocsetPrefix: prefix)), rawType: rawType, type: type))
        return true
    }

    /// The first `SourceIndex.maxFieldBytes` bytes (the fast path reads ASCII only, where bytes are characters).
    private static func cut(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        bytes.count <= SourceIndex.maxFieldBytes ? bytes : UnsafeBufferPointer(rebasing: bytes.prefix(SourceIndex.maxFieldBytes))
    }
}

/// Raw types (column 1) and their normalised names, found by the column's bytes without building a `String`: an
/// open-addressing table of FNV-1a hashes, at most `limit` types cached (a docset has a few dozen).
private struct TypeTable {
    private static let limit = 4096
    private static let mask = 2 * limit - 1
    private var keys: [[UInt8]] = []
    private var hashes: [UInt64] = []
    private var values: [(raw: String, type: String)] = []
    private var slots = [Int](repeating: -1, count: 2 * limit)
    private var last = -1
    private let empty = (raw: "", type: EntryType.normalise(""))

    mutating func lookup(_ row: RawEntryRow) -> (raw: String, type: String) {
        switch row.column(1) {
        case .null:
            return empty
        case .number:
            let raw = row.text(1) ?? ""
            return (raw, EntryType.normalise(raw))
        case .bytes(let bytes):
            if last >= 0 && Self.equal(keys[last], bytes) { return values[last] }
            let hash = Self.hash(bytes)
            var slot = Int(truncatingIfNeeded: hash) & Self.mask
            while slots[slot] >= 0 {
                let index = slots[slot]
                if hashes[index] == hash && Self.equal(keys[index], bytes) {
                    last = index
                    return values[index]
                }
                slot = (slot + 1) & Self.mask
            }
            let raw = RawEntryRow.string(bytes)
            let value = (raw: raw, type: EntryType.normalise(raw))
            if keys.count < Self.limit {
                slots[slot] = keys.count
                last = keys.count
                keys.append(Array(bytes))
                hashes.append(hash)
                values.append(value)
            }
            return value
        }
    }

    private static func equal(_ key: [UInt8], _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard key.count == bytes.count else { return false }
        guard !bytes.isEmpty, let base = bytes.baseAddress else { return true }
        return key.withUnsafeBufferPointer { memcmp($0.baseAddress!, base, bytes.count) == 0 }
    }

    /// FNV-1a.
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return hash
    }
}
