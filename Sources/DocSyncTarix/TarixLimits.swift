/// Bounds on what a tarix archive may declare. The path rules match extraction's (`InstallLimits`' defaults).
package struct TarixLimits: Sendable, Equatable {
    /// Largest document `TarixArchive.read` inflates.
    package var maxDocumentBytes: Int64 = 64 << 20
    /// Longest record, in 512-byte blocks, an index may locate: Zeal's reader refuses records over 64 MiB, so a
    /// store holding one would have a document Zeal cannot open.
    package var maxRecordBlocks: Int64 = (64 << 20) / 512
    /// Largest GNU long-name or pax extended header kept in memory.
    package var maxHeaderBytes = 64 << 10
    /// Longest path (bytes), as extraction allows.
    package var maxPathBytes = 1024
    /// Longest path component (bytes): NAME_MAX.
    package var maxNameBytes = 255
    /// Deepest path (components), as extraction allows.
    package var maxDepth = 48
    /// Entries in one archive.
    package var maxEntryCount = 1_000_000

    /// The defaults above.
    package init() {}
}
