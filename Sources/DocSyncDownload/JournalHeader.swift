import DocSyncSupport

/// The framing both journal versions share: magic `DSJ`, a version byte, the key, the URL, the length (-1: not
/// known), the validator; then the version's own fields; then the SHA-256 of everything before it, so a torn or
/// flipped journal is detected and the partial discarded, never adopted. A reader of one version rejects the other.
struct JournalHeader: Sendable, Equatable {
    static let magic: [UInt8] = Array("DSJ".utf8)

    var version: UInt8
    var key: String
    var url: String
    var length: Int64
    var validator: Validator

    /// A writer holding this header; the version's own fields follow, then `sealed(_:)`.
    func writer() -> ByteWriter {
        var out = ByteWriter()
        out.bytes(Self.magic)
        out.byte(version)
        out.string(key)
        out.string(url)
        out.int64(length)
        out.string(validator.etag ?? "")
        out.byte(validator.etag == nil ? 0 : 1)
        out.string(validator.lastModified ?? "")
        out.byte(validator.lastModified == nil ? 0 : 1)
        out.byte(validator.lastModifiedIsStrong ? 1 : 0)
        return out
    }

    /// The bytes written to `out`, followed by their SHA-256.
    static func sealed(_ out: ByteWriter) -> [UInt8] { out.data + SHA256.hash(out.data).bytes }

    /// Checks the trailer, the magic and `version`; returns the header and a reader at the version's own fields.
    static func open(_ data: [UInt8], version: UInt8) -> (header: JournalHeader, reader: ByteReader)? {
        guard data.count > 36 else { return nil }
        let body = Array(data[..<(data.count - 32)])
        guard SHA256.hash(body).bytes == Array(data[(data.count - 32)...]) else { return nil }
        var reader = ByteReader(body)
        guard reader.bytes(3) == magic, reader.byte() == version,
            let key = reader.string(), let url = reader.string(), let length = reader.int64(),
            let etag = reader.string(), let hasETag = reader.byte(),
            let modified = reader.string(), let hasModified = reader.byte(), let strong = reader.byte()
        else { return nil }
        let validator = Validator(
            etag: hasETag == 1 ? etag : nil, lastModified: hasModified == 1 ? modified : nil,
            lastModifiedIsStrong: strong == 1)
        return (JournalHeader(version: version, key: key, url: url, length: length, validator: validator), reader)
    }

    /// True when `data` starts with the magic and `version`, intact or not.
    static func starts(_ data: [UInt8], version: UInt8) -> Bool {
        data.count > 4 && Array(data[0..<3]) == magic && data[3] == version
    }
}

/// Little-endian fields for the journals.
struct ByteWriter {
    var data: [UInt8] = []

    mutating func byte(_ value: UInt8) { data.append(value) }
    mutating func bytes(_ value: [UInt8]) { data.append(contentsOf: value) }
    mutating func int64(_ value: Int64) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
    mutating func blob(_ value: [UInt8]) {
        int64(Int64(value.count))
        bytes(value)
    }
    mutating func string(_ value: String) { blob(Array(value.utf8)) }
}

/// Reads what `ByteWriter` writes; nil past the end.
struct ByteReader {
    let data: [UInt8]
    var position = 0

    init(_ data: [UInt8]) { self.data = data }

    var atEnd: Bool { position == data.count }

    mutating func bytes(_ count: Int) -> [UInt8]? {
        guard count >= 0, data.count - position >= count else { return nil }
        defer { position += count }
        return Array(data[position..<(position + count)])
    }
    mutating func byte() -> UInt8? { bytes(1)?.first }
    mutating func int64() -> Int64? {
        guard let raw = bytes(8) else { return nil }
        return raw.reversed().reduce(Int64(0)) { $0 << 8 | Int64($1) }
    }
    mutating func blob() -> [UInt8]? {
        guard let count = int64(), count <= 1 << 20 else { return nil }
        return bytes(Int(count))
    }
    mutating func string() -> String? { blob().map { String(decoding: $0, as: UTF8.self) } }
}
