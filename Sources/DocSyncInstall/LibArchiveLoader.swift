import CArchiveShim
import DocSyncSupport

/// libarchive, loaded on first use.
package enum LibArchiveLoader {
    /// Loads libarchive, once (later calls return the first one's result).
    static func load() throws(ArchiveFailure) {
        var missing: UnsafePointer<CChar>?
        guard let reason = ds_archive_load(&missing) else { return }
        throw ArchiveFailure(unavailable(DS_ARCHIVE_SONAME, reason: reason, missing: missing))
    }

    /// The same load of `soname` with libarchive's function list, closed again: a library that is missing or lacks
    /// a function is the error ``load()`` throws (tests).
    package static func probe(soname: String) throws(LibraryUnavailable) {
        var missing: UnsafePointer<CChar>?
        var buffer = [CChar](repeating: 0, count: 512)
        guard let reason = ds_archive_probe(soname, &buffer, buffer.count, &missing) else { return }
        throw unavailable(soname, reason: reason, missing: missing)
    }

    private static func unavailable(_ soname: String, reason: UnsafePointer<CChar>, missing: UnsafePointer<CChar>?)
        -> LibraryUnavailable
    {
        LibraryUnavailable(
            library: soname, purpose: "archives", reason: String(cString: reason), function: missing.map(String.init))
    }
}
