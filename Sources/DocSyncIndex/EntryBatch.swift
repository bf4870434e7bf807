/// Entries handed from the reader thread to the iterator as bytes: each entry's name, page, fragment and URL are
/// final UTF-8 text in one growing buffer, so the reader builds no `String` (no allocation per entry on its thread,
/// none freed on another). The iterator builds a ``DocsetEntry``'s strings on its own side (``entry(_:)``), or hands
/// the bytes out as they are (``EntryBytes``, what `docsync entries --json` writes).
///
/// `@unchecked Sendable`: the reader thread fills a batch and hands it over through `EntryChannel`; only the
/// iterator touches it after that.
@usableFromInline
final class EntryBatch: @unchecked Sendable {
    /// A field's place in ``bytes``; `start` -1: no value (a nil fragment).
    struct Span {
        var start: Int32
        var count: Int32
        static let absent = Span(start: -1, count: 0)
    }

    struct Record {
        var name: Span
        var page: Span
        var fragment: Span
        var url: Span
        var rawType: String
        var type: String
    }

    private(set) var bytes: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private(set) var used = 0
    private(set) var records: [Record] = []

    /// A batch for about `entries` entries.
    init(entries: Int) {
        capacity = Swift.max(4096, entries * 192)
        bytes = .allocate(capacity: capacity)
        records.reserveCapacity(entries)
    }

    deinit { bytes.deallocate() }

    /// How many entries the batch holds.
    @usableFromInline var count: Int { records.count }

    /// Space for `extra` more bytes at ``bytes`` + ``used`` (the buffer may move: spans are offsets).
    func reserve(_ extra: Int) {
        guard used + extra > capacity else { return }
        let grown = Swift.max(2 * capacity, used + extra)
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        moved.initialize(from: bytes, count: used)
        bytes.deallocate()
        bytes = moved
        capacity = grown
    }

    /// Appends `text`; its span.
    func append(_ text: UnsafeBufferPointer<UInt8>) -> Span {
        reserve(text.count)
        if let base = text.baseAddress { (bytes + used).initialize(from: base, count: text.count) }
        return commit(text.count)
    }

    /// Appends `text`'s UTF-8; its span.
    func append(_ text: String) -> Span {
        var text = text
        return text.withUTF8 { append($0) }
    }

    /// Marks `count` bytes written at ``bytes`` + ``used`` (after ``reserve(_:)``) as a field; its span.
    func commit(_ count: Int) -> Span {
        let span = Span(start: Int32(truncatingIfNeeded: used), count: Int32(truncatingIfNeeded: count))
        used += count
        return span
    }

    /// Adds an entry whose fields were appended.
    func add(_ record: Record) { records.append(record) }

    /// A field's bytes (valid while the batch lives and nothing is appended).
    func buffer(_ span: Span) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: bytes + Int(span.start), count: Int(span.count))
    }

    private func string(_ span: Span) -> String { String(decoding: buffer(span), as: UTF8.self) }

    /// Entry `index` as a value.
    @usableFromInline
    func entry(_ index: Int) -> DocsetEntry {
        let record = records[index]
        return DocsetEntry(
            name: string(record.name), type: record.type, rawType: record.rawType, page: string(record.page),
            fragment: record.fragment.start < 0 ? nil : string(record.fragment), urlString: string(record.url))
    }

    /// Entry `index` as bytes.
    func entryBytes(_ index: Int) -> EntryBytes {
        let record = records[index]
        return EntryBytes(
            name: buffer(record.name), type: record.type, rawType: record.rawType, page: buffer(record.page),
            fragment: record.fragment.start < 0 ? nil : buffer(record.fragment), url: buffer(record.url))
    }
}

/// One entry's fields as UTF-8 bytes, exactly the text of the ``DocsetEntry`` the same iteration would give:
/// what `docsync entries --json` writes without building a `String` per field. The buffers are valid until the
/// iterator's next call.
package struct EntryBytes {
    /// ``DocsetEntry/name``'s UTF-8.
    package var name: UnsafeBufferPointer<UInt8>
    /// ``DocsetEntry/type``.
    package var type: String
    /// ``DocsetEntry/rawType``.
    package var rawType: String
    /// ``DocsetEntry/page``'s UTF-8.
    package var page: UnsafeBufferPointer<UInt8>
    /// ``DocsetEntry/fragment``'s UTF-8.
    package var fragment: UnsafeBufferPointer<UInt8>?
    /// ``DocsetEntry/urlString``'s UTF-8.
    package var url: UnsafeBufferPointer<UInt8>
}
