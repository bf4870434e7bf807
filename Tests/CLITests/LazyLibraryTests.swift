import DocSyncFeed
import DocSyncHTTP
@testable import DocSyncInstall
import DocSyncSupport
import Foundation
import TestSupport
import Testing

/// libcurl, libarchive, libcrypto and libxml2 are loaded on first use, not linked (#39: ~9 ms of every command's
/// start-up went to loading the first two and their dependencies, ~1 ms to relocating libcrypto; #35: libxml2 with
/// ICU and liblzma behind it, four of the fourteen libraries `changes` loaded): the executable does not need them, a
/// command that does not transfer, read an archive or parse a feed runs without them, and one that does fails with a
/// clear error naming the library and the function.
/// A directory on LD_LIBRARY_PATH with `libcurl.so.4`, `libarchive.so.13` and `libxml2.so.2` that are zlib stands for
/// a machine whose libraries are incompatible: they load, but lack every function docsync calls.
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct LazyLibraryTests {
    /// A wrapper's loader: its probe, the soname it loads, what for, and the first function it resolves.
    struct Loader: Sendable, CustomStringConvertible {
        let probe: @Sendable (String) throws(LibraryUnavailable) -> Void
        let soname: String
        let purpose: String
        let firstFunction: String
        var description: String { soname }
    }

    static let loaders = [
        Loader(
            probe: { soname throws(LibraryUnavailable) in try Curl.probe(soname: soname) }, soname: "libcurl.so.4",
            purpose: "downloads", firstFunction: "curl_global_init"),
        Loader(
            probe: { soname throws(LibraryUnavailable) in try LibArchiveLoader.probe(soname: soname) },
            soname: "libarchive.so.13", purpose: "archives", firstFunction: "archive_read_new"),
        Loader(
            probe: { soname throws(LibraryUnavailable) in try SHA256.probe(soname: soname) },
            soname: "libcrypto.so.3", purpose: "checksums", firstFunction: "SHA256_Init"),
        Loader(
            probe: { soname throws(LibraryUnavailable) in try LibXML2.probe(soname: soname) },
            soname: "libxml2.so.2", purpose: "feeds", firstFunction: "xmlInitParser"),
    ]

    @Test func theInstalledLibrariesLoadWithEveryFunction() throws {
        try Curl.load()
        try LibArchiveLoader.load()
        try SHA256.load(for: "checksums")
        #expect(SHA256.hash(Array("abc".utf8)).description.hasPrefix("ba7816bf8f01cfea"))
        for loader in Self.loaders { try loader.probe(loader.soname) }
    }

    /// A soname that does not exist, and zlib standing for an incompatible library (it loads, without the functions).
    @Test(arguments: loaders) func aLibraryThatCannotServeIsATypedErrorNamingItAndTheFunction(_ loader: Loader) {
        let cases: [(soname: String, kind: LibraryUnavailable.Kind, text: String)] = [
            ("libdocsync-absent.so.1", .notLoadable, "cannot open shared object file"),
            ("libz.so.1", .missingFunction, "libz.so.1 has no function \(loader.firstFunction)"),
        ]
        for (soname, kind, text) in cases {
            do throws(LibraryUnavailable) {
                try loader.probe(soname)
                Issue.record("\(soname) passed for \(loader.soname)")
            } catch {
                #expect(error.kind == kind, "\(error)")
                #expect(error.library == soname)
                #expect(error.function == (kind == .missingFunction ? loader.firstFunction : nil))
                #expect(error.description.hasPrefix("\(soname) is needed for \(loader.purpose) and cannot be used: "))
                #expect(error.reason.contains(text), "\(error.reason)")
            }
        }
    }

    @Test func anUnavailableLibarchiveIsNoFaultOfTheArchive() {
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

    @Test func theExecutableDoesNotNeedTheLibrariesItLoadsOnFirstUse() throws {
        let result = try Tool.run("/usr/bin/readelf", ["-d", Tool.docsyncBinary])
        #expect(result.status == 0, "\(result.standardError)")
        let needed = result.standardOutput.split(separator: "\n").filter { $0.contains("(NEEDED)") }
        #expect(needed.contains { $0.contains("libz.so.1") }, "readelf sees the NEEDED list: \(needed)")
        #expect(
            !needed.contains { line in
                ["libcurl", "libarchive", "libcrypto", "libxml2", "libicu", "liblzma"].contains { line.contains($0) }
            },
            "\(needed)")
    }

    @Test func aCommandThatNeverTransfersRunsWithoutThem() throws {
        let dir = try TemporaryDirectory("lazy-library")
        defer { dir.remove() }
        let result = try Tool.run(Tool.docsyncBinary, ["--version"], environment: try Self.environment(dir))
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.hasPrefix("docsync "))
    }

    @Test func aTransferNamesTheLibraryAndTheMissingFunction() throws {
        let dir = try TemporaryDirectory("lazy-library")
        defer { dir.remove() }
        // Nothing listens: the transfer fails before any connection.
        let result = try Tool.run(
            Tool.docsyncBinary, ["fetch", "http://127.0.0.1:9/file.bin", "--output", dir.appending("out/file.bin")],
            environment: try Self.environment(dir))
        #expect(result.status == 69, "\(result.standardError)")
        #expect(
            result.standardError.contains(
                "libcurl.so.4 is needed for downloads and cannot be used: libcurl.so.4 has no function curl_global_init"),
            "\(result.standardError)")
    }

    @Test func aFeedParseNamesTheLibraryAndTheMissingFunction() throws {
        let dir = try TemporaryDirectory("lazy-library")
        defer { dir.remove() }
        let feed = dir.appending("Go.xml")
        try Data("<entry><version>1</version><url>http://127.0.0.1:9/Go.tgz</url></entry>".utf8)
            .write(to: URL(fileURLWithPath: feed))
        let result = try Tool.run(Tool.docsyncBinary, ["feed", "parse", feed], environment: try Self.environment(dir))
        #expect(result.status == 74, "\(result.standardError)")  // no fault of the feed (65)
        #expect(
            result.standardError.contains(
                "libxml2.so.2 is needed for feeds and cannot be used: libxml2.so.2 has no function xmlInitParser"),
            "\(result.standardError)")
        #expect(!result.standardError.contains("not well-formed"), "\(result.standardError)")
    }

    /// libcrypto is loaded before libcurl (downloads are hashed): one that lacks SHA-256 is named first.
    @Test func aTransferNamesLibcryptoWhenItCannotHash() throws {
        let dir = try TemporaryDirectory("lazy-library")
        defer { dir.remove() }
        let result = try Tool.run(
            Tool.docsyncBinary, ["fetch", "http://127.0.0.1:9/file.bin", "--output", dir.appending("out/file.bin")],
            environment: try Self.environment(dir, fakes: ["libcrypto.so.3"]))
        #expect(result.status == 69, "\(result.standardError)")
        #expect(
            result.standardError.contains(
                "libcrypto.so.3 is needed for downloads and cannot be used: libcrypto.so.3 has no function "
                    + "SHA256_Init"),
            "\(result.standardError)")
    }

    @Test func anInstallNamesTheLibraryAndTheMissingFunction() throws {
        let dir = try TemporaryDirectory("lazy-library")
        defer { dir.remove() }
        let archive = dir.appending("Go.tgz")
        try Data("not read: libarchive is loaded first".utf8).write(to: URL(fileURLWithPath: archive))
        try FileManager.default.createDirectory(atPath: dir.appending("root"), withIntermediateDirectories: true)
        let result = try Tool.run(
            Tool.docsyncBinary, ["install", archive, "--root", dir.appending("root"), "--name", "Go"],
            environment: try Self.environment(dir))
        #expect(result.status == 74, "\(result.standardError)")  // no fault of the archive (65)
        #expect(
            result.standardError.contains(
                "libarchive.so.13 is needed for archives and cannot be used: libarchive.so.13 has no function "
                    + "archive_read_new"),
            "\(result.standardError)")
        #expect(!result.standardError.contains("unreadable archive"), "\(result.standardError)")
    }

    /// The test environment with `dir/lib` first on LD_LIBRARY_PATH, holding zlib as each of `fakes` (default
    /// libcurl.so.4, libarchive.so.13 and libxml2.so.2), and no user configuration.
    static func environment(
        _ dir: TemporaryDirectory, fakes: [String] = ["libcurl.so.4", "libarchive.so.13", "libxml2.so.2"]
    )
        throws -> [String: String]
    {
        let lib = dir.appending("lib")
        try FileManager.default.createDirectory(atPath: lib, withIntermediateDirectories: true)
        let zlib = try Self.zlibPath()
        for name in fakes {
            try FileManager.default.createSymbolicLink(atPath: "\(lib)/\(name)", withDestinationPath: zlib)
        }
        return Tool.environment(["LD_LIBRARY_PATH": lib, "HOME": dir.path, "XDG_CONFIG_HOME": dir.appending("none")])
    }

    struct NoZlib: Error, CustomStringConvertible {
        var description: String { "no libz.so.1 in /proc/self/maps" }
    }

    /// The zlib this test process has mapped (it links zlib too).
    static func zlibPath() throws -> String {
        let maps = GnuTLSStartupTests.procText("/proc/self/maps")
        let path = maps.split(separator: "\n").lazy.compactMap { $0.split(separator: " ").last }
            .first { $0.hasPrefix("/") && $0.split(separator: "/").last?.hasPrefix("libz.so.1") == true }
        guard let path else { throw NoZlib() }
        return String(path)
    }
}
