/// What the first bytes of an archive download are, whatever its `Content-Type` says: a mirror that answers a
/// missing file with an HTML page behind `Content-Type: application/x-gzip` (a soft 404 with a wrong type) is a
/// mirror fault, never an unreadable archive. Pure.
package enum ArchiveSniff {
    package enum Kind: Equatable, Sendable {
        /// A compressed stream or container docsync reads: `gzip`, `bzip2`, `xz`, `zstd`, `zip`, `xar`.
        case archive(String)
        /// Markup: the first byte after an optional UTF-8 byte-order mark and white space is `<` (no archive
        /// format docsync reads starts so; a tar's first bytes are a member name).
        case page
        /// Neither (a plain tar, or too few bytes to tell): accepted, the archive reader decides.
        case unknown
    }

    static let magics: [(name: String, bytes: [UInt8])] = [
        ("gzip", [0x1F, 0x8B]), ("bzip2", [0x42, 0x5A, 0x68]), ("xz", [0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00]),
        ("zstd", [0x28, 0xB5, 0x2F, 0xFD]), ("zip", [0x50, 0x4B, 0x03, 0x04]), ("xar", [0x78, 0x61, 0x72, 0x21]),
    ]

    package static func classify<Bytes: Collection>(_ prefix: Bytes) -> Kind where Bytes.Element == UInt8 {
        for (name, magic) in magics where prefix.starts(with: magic) { return .archive(name) }
        var rest = prefix[...]
        if rest.starts(with: [0xEF, 0xBB, 0xBF]) { rest = rest.dropFirst(3) }
        guard let first = rest.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else { return .unknown }
        return first == UInt8(ascii: "<") ? .page : .unknown
    }
}
