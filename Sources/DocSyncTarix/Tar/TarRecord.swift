import DocSyncSupport

/// One tar record as a tarix index counts it: its header block(s) — GNU `././@LongLink` and pax `x` headers
/// included — and its data blocks.
package struct TarRecord: Sendable, Equatable {
    /// What the record creates.
    package enum Kind: Sendable, Equatable {
        case regular
        case directory
        case symlink(target: [UInt8])
        case hardlink(target: [UInt8])
        /// A pax global header (`g`): a record of its own that names nothing.
        case globalHeader
        /// A GNU sparse file (typeflag `S` or pax `GNU.sparse.*`).
        case sparse
        /// Devices, FIFOs and anything else, by typeflag.
        case other(typeflag: UInt8)
    }

    /// The first 512-byte block of the record in the uncompressed tar.
    package let firstBlock: Int64
    /// Header blocks plus data blocks.
    package let blockCount: Int64
    /// The effective path: pax `path`, else GNU long name, else ustar prefix + name.
    package let path: [UInt8]
    package let kind: Kind
    /// Bytes of data (the file's size for a regular file).
    package let size: Int64
    /// Permission bits from the header.
    package let mode: Int64

    /// The path as text, control characters escaped, for messages.
    package var displayPath: String { String(decoding: path, as: UTF8.self).escapingControlCharacters }
}
