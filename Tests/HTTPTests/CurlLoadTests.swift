import DocSyncHTTP
import DocSyncSupport
import Testing

/// libcurl is loaded by the first transfer (CCurlShim over CLazyLibrary), not linked: a library that is missing or
/// lacks a function docsync calls is a typed error naming the library and the function, never a trap.
@Suite(.timeLimit(.minutes(2))) struct CurlLoadTests {
    @Test func theInstalledLibcurlLoadsWithEveryFunction() throws {
        try Curl.load()
        try Curl.probe(soname: "libcurl.so.4")
    }

    @Test func aMissingLibraryIsNamed() {
        do throws(LibraryUnavailable) {
            try Curl.probe(soname: "libdocsync-absent.so.4")
            Issue.record("a library that does not exist loaded")
        } catch {
            #expect(error.kind == .notLoadable)
            #expect(error.function == nil)
            #expect(error.library == "libdocsync-absent.so.4")
            #expect(error.description.hasPrefix("libdocsync-absent.so.4 is needed for downloads and cannot be used: "))
            #expect(error.reason.contains("cannot open shared object file"), "\(error.reason)")
        }
    }

    /// zlib stands for an incompatible libcurl: it loads, but has none of libcurl's functions.
    @Test func aLibraryWithoutTheFunctionsNamesTheFirstMissingOne() {
        do throws(LibraryUnavailable) {
            try Curl.probe(soname: "libz.so.1")
            Issue.record("zlib passed for libcurl")
        } catch {
            #expect(error.kind == .missingFunction)
            #expect(error.function == "curl_global_init")
            #expect(error.description.contains("libz.so.1 has no function curl_global_init"), "\(error)")
        }
    }
}
