/// Caps that bound what one archive may unpack to. The defaults fit the largest real docsets (a 473 MB tgz that
/// unpacks to 2.3 GB; 200k–250k files) with room to spare, and stop bombs long before the disk fills.
package struct InstallLimits: Sendable, Equatable {
    /// Total unpacked bytes (declared and actually produced).
    package var maxTotalBytes: Int64 = 8 << 30
    /// One file's size.
    package var maxFileBytes: Int64 = 2 << 30
    /// Entries in the archive, skipped ones included.
    package var maxEntryCount = 1_000_000
    /// Unpacked bytes per archive byte, once more than `ratioAllowance` bytes are out.
    package var maxExpansionRatio: Int64 = 200
    /// Bytes an archive may always produce whatever its ratio (tiny archives of empty files compress very well).
    package var ratioAllowance: Int64 = 16 << 20
    /// Bytes of one path inside the docset.
    package var maxPathBytes = 1024
    /// Directories deep.
    package var maxDepth = 48
    /// One path component (Linux NAME_MAX).
    package var maxNameBytes = 255

    package init() {}
}
