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
    /// Threads inflating an archive beside the one walking it, when it is checked or indexed as it is (0: the walking
    /// thread inflates alone). Not a bound on the archive: how its one pass is spread.
    package var inflateWorkers = 2
    /// Compressed bytes per inflate job (cut at the first full flush past half of it; tests make it small).
    package var inflateJobBytes = 256 << 10

    /// The defaults above.
    package init() {}
}
