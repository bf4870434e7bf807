@testable import DocSyncInstall
import DocSyncSupport
import Testing

/// libarchive is loaded by the first archive reader or writer (CArchiveShim over CLazyLibrary), not linked: a library
/// that is missing or lacks a function docsync calls is a typed error naming the library and the function, which an
/// install reports as no fault of the archive.
@Suite(.timeLimit(.minutes(2))) struct LibArchiveLoadTests {
    @Test func theInstalledLibarchiveLoadsWithEveryFunction() throws {
        try LibArchiveLoader.load()
        try LibArchiveLoader.probe(soname: "libarchive.so.13")
    }

    @Test func aMissingLibraryIsNamed() {
        do throws(LibraryUnavailable) {
            try LibArchiveLoader.probe(soname: "libdocsync-absent.so.13")
            Issue.record("a library that does not exist loaded")
        } catch {
            #expect(error.kind == .notLoadable)
            #expect(error.library == "libdocsync-absent.so.13")
            #expect(error.description.hasPrefix("libdocsync-absent.so.13 is needed for archives and cannot be used: "))
        }
    }

    /// zlib stands for an incompatible libarchive: it loads, but has none of libarchive's functions.
    @Test func aLibraryWithoutTheFunctionsNamesTheFirstMissingOne() {
        do throws(LibraryUnavailable) {
            try LibArchiveLoader.probe(soname: "libz.so.1")
            Issue.record("zlib passed for libarchive")
        } catch {
            #expect(error.kind == .missingFunction)
            #expect(error.function == "archive_read_new")
            #expect(error.description.contains("libz.so.1 has no function archive_read_new"), "\(error)")
        }
    }

    @Test func anUnavailableLibraryIsNoFaultOfTheArchive() {
        let library = LibraryUnavailable(
            library: "libarchive.so.13", purpose: "archives", reason: "libarchive.so.13 cannot be loaded: gone",
            function: nil)
        let failure = ArchiveFailure(library)
        #expect(failure.library == library)
        #expect(failure.message.contains("libarchive.so.13 is needed for archives"))
        let install = InstallError.libraryUnavailable(library)
        #expect(!install.isArchiveRejection)
        #expect(install.description == library.description)
    }
}
