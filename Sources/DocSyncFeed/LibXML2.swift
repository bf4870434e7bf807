internal import CLibXML2
import DocSyncSupport

/// libxml2, loaded on first use (CLibXML2) by the first feed parsed or page read for its text, not at start-up: a
/// missing or incompatible libxml2 fails that parse with ``LibraryUnavailable``, naming the library and the function.
package enum LibXML2 {
    /// Loads libxml2 and runs xmlInitParser, once (later calls return the first one's result); `purpose` is what the
    /// caller needs it for.
    static func load(for purpose: String) throws(LibraryUnavailable) {
        try LibraryUnavailable.check(DS_XML_SONAME, for: purpose) { _, _, missing in ds_xml_load(missing) }
    }

    /// The same load of `soname` with libxml2's function list, closed again: a library that is missing or lacks a
    /// function is the error ``load(for:)`` throws (tests).
    package static func probe(soname: String) throws(LibraryUnavailable) {
        try LibraryUnavailable.check(soname, for: feedPurpose) { ds_xml_probe(soname, $0, $1, $2) }
    }

    /// What feeds' parsing and pages' text need it for.
    static let feedPurpose = "feeds"
    static let textPurpose = "page text"
}
