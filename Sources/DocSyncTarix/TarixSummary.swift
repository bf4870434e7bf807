/// What building a tarix store did.
package struct TarixSummary: Sendable, Equatable {
    /// How the archive became a tarix archive.
    package enum Mode: String, Sendable {
        /// The publisher's archive already had a flush point before every record: indexed as it is.
        case indexedAsIs = "indexed"
        /// Re-encoded into a new gzip with a flush before every record.
        case reencoded
    }

    package let mode: Mode
    /// Tar records read (headers chains counted once).
    package let records: Int
    /// Rows with a location (regular files).
    package let documents: Int
    /// All index rows (documents and directories).
    package let indexRows: Int
    /// Bytes of the uncompressed tar.
    package let tarBytes: Int64
    /// Bytes of the tarix archive.
    package let archiveBytes: Int64
    /// `X.docset/` (or `./X.docset/`): the prefix every indexed path starts with.
    package let rootPrefix: String?
    /// The SHA-256 of the tarix archive, computed as it was written (re-encoded archives; nil when kept as it is:
    /// the source's digest is the caller's).
    package var archiveSHA256: String? = nil
}
