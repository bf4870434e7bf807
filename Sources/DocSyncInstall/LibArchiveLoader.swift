import CArchiveShim
import DocSyncSupport

/// libarchive, loaded on first use.
package enum LibArchiveLoader {
    /// Loads libarchive, once (later calls return the first one's result).
    static func load() throws(ArchiveFailure) {
        do throws(LibraryUnavailable) {
            try SHA256.load(for: purpose)  // an install hashes what it reads
            try LibraryUnavailable.check(DS_ARCHIVE_SONAME, for: purpose) { _, _, missing in ds_archive_load(missing) }
        } catch {
            throw ArchiveFailure(error)
        }
    }

    /// The same load of `soname` with libarchive's function list, closed again: a library that is missing or lacks
    /// a function is the error ``load()`` throws (tests).
    package static func probe(soname: String) throws(LibraryUnavailable) {
        try LibraryUnavailable.check(soname, for: purpose) { ds_archive_probe(soname, $0, $1, $2) }
    }

    private static let purpose = "archives"
}
