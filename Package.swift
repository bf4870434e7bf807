// swift-tools-version:6.2
import PackageDescription

// Layout: one module per pipeline stage (feeds → download → install → sync), each the only user of its C library.
//   CCurl / CArchive / CZlib / CIsal / CDeflate   system libraries (module maps only; CCurl and CArchive give types and
//                                 constants only: those two libraries are not linked)
//   CLazyLibrary                  a C library opened on first use: dlopen of its soname, dlsym of the functions used
//   CCurlShim                     libcurl loaded on first use (CLazyLibrary) and every call Swift makes into it, with
//                                 typed, non-variadic curl_easy_setopt / curl_easy_getinfo
//   CArchiveShim                  libarchive loaded on first use (CLazyLibrary) and every call Swift makes into it
//   CLibXML2                      libxml2's headers, and libxml2 loaded on first use (CLazyLibrary) with every call
//                                 Swift makes into it
//   CDocSyncSys                   renameat2, syncfs, O_DIRECT, OpenSSL SHA-256 behind a fixed-size state (C;
//                                 libcrypto loaded on first use through CLazyLibrary)
//   DocSyncSupport                SHA-256, durable file helpers (the only CDocSyncSys user)
//   CDocSyncStartup               the executables' start-up (C, no API): GnuTLS's implicit init skipped, malloc
//                                 arenas capped (DocSyncCLI's)
//   DocSyncHTTP                   libcurl easy handles (the only libcurl user)
//   DocSyncFeed                   feed parsing, and pages' visible text for the text index (the only libxml2 user)
//   DocSyncDownload               the resumable downloader
//   DocSyncDocset                 InstalledDocset, the installed docset's value, and its search keywords as Zeal reads
//                                 them (product: DocSync re-exports it)
//   DocSyncInstall                safe extraction + atomic swap (the only libarchive user; gzip inflated by
//                                 DocSyncTarix), each docset completed for readers (Zeal's index and layout:
//                                 DocSyncIndex's formats) and the tarix store built (DocSyncTarix) before it is
//                                 published: nothing calls back up
//   DocSyncCatalog                catalogues (Zeal, Kapeli, contributions, cheat sheets): parsing and name resolution
//   DocSyncIndex                  read-only search over installed docsets' indexes (names, and text: SQLite FTS5)
//   DocSyncTarix                  the compressed store: tarix archives and their indexes (the only zlib, ISA-L and
//                                 libdeflate user: a record's raw inflate, and the installer's gzip inflate)
//   DocSyncMirror                 the fleet mirror: publishing a served tree (feeds, catalogue, archives), bundles
//   DocSync                       the library product an indexing backend imports (no TOML, metrics or CLI parsing)
//   DocSyncConfigFile             docsync.toml: reading it (the only TOMLKit user), the template, text edits
//   DocSyncMetrics                the Prometheus text file, plugged into DocSync as a SyncRunObserver
//   DocSyncServe                  `docsync serve`: the read-only HTTP front (the only Hummingbird user)
//   DocSyncCLI / docsync          the command-line interface (without the HTTP front: Hummingbird/NIO not linked)
//   docsync-serve                 the same command line with DocSyncServe: `docsync serve` / `daemon` exec it
let strict: [SwiftSetting] = [.enableUpcomingFeature("ExistentialAny")]

let package = Package(
    name: "docsync",
    products: [
        .library(name: "DocSync", targets: ["DocSync"]),
        .library(name: "DocSyncConfigFile", targets: ["DocSyncConfigFile"]),
        .library(name: "DocSyncMetrics", targets: ["DocSyncMetrics"]),
        .executable(name: "docsync", targets: ["docsync"]),
        .executable(name: "docsync-serve", targets: ["docsync-serve"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        // One trait, named: Hummingbird's default set (ConfigurationSupport, FullFoundation) reaches swiftc as -D flags
        // in an order SwiftPM does not keep from one `swift build` to the next, which recompiled Hummingbird on every
        // other release build; docsync uses no swift-configuration reader, so it is not linked either.
        .package(
            url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: ["FullFoundation"]),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    ],
    targets: [
        // libcurl and libarchive: headers only, no pkgConfig and no `link` (their libraries' flags would put them
        // on the link line); CCurlShim and CArchiveShim load them on first use (#39: start-up).
        .systemLibrary(name: "CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CArchive", providers: [.apt(["libarchive-dev"])]),
        .systemLibrary(
            name: "CZlib", pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(
            name: "CIsal", pkgConfig: "libisal",
            providers: [.apt(["libisal-dev"])]),
        .systemLibrary(
            name: "CDeflate", pkgConfig: "libdeflate",
            providers: [.apt(["libdeflate-dev"])]),
        .target(name: "CLazyLibrary"),
        .target(name: "CCurlShim", dependencies: ["CCurl", "CLazyLibrary"]),
        .target(name: "CArchiveShim", dependencies: ["CArchive", "CLazyLibrary"]),
        // libxml2: its headers (libxml2-dev's /usr/include/libxml2, named here and in DocSyncFeed's flags: pkg-config
        // would also put -lxml2 on the link line, ahead of any --as-needed) and the wrappers of every call, loaded on
        // first use (CLazyLibrary) with ICU and liblzma behind it, as libcurl and libarchive are.
        .target(
            name: "CLibXML2", dependencies: ["CLazyLibrary"], cSettings: [.unsafeFlags(["-I/usr/include/libxml2"])]),
        // libcrypto: headers only, loaded on first use (CLazyLibrary), as libcurl and libarchive are.
        .target(name: "CDocSyncSys", dependencies: ["CLazyLibrary"]),
        // Linked through DocSyncCLI into the executables only, not into the DocSync product a backend links. The
        // executables export its one function so that libgnutls's weak definition is interposed (see its source).
        .target(
            name: "CDocSyncStartup",
            linkerSettings: [.unsafeFlags(["-Xlinker", "--export-dynamic-symbol=_gnutls_global_init_skip"])]),

        .target(name: "DocSyncSupport", dependencies: ["CDocSyncSys"], swiftSettings: strict),
        .target(
            name: "DocSyncHTTP",
            dependencies: ["CCurl", "CCurlShim", "DocSyncSupport"], swiftSettings: strict),
        .target(
            name: "DocSyncFeed",
            dependencies: ["CLibXML2", "DocSyncSupport"],
            // CLibXML2's headers include libxml2's; DocSyncFeed imports CLibXML2 `internal`, so no other module
            // needs the path.
            swiftSettings: strict + [.unsafeFlags(["-Xcc", "-I/usr/include/libxml2"])]),
        .target(
            name: "DocSyncDownload",
            dependencies: ["DocSyncSupport", "DocSyncHTTP"], swiftSettings: strict),
        .target(name: "DocSyncDocset", swiftSettings: strict),
        .target(
            name: "DocSyncInstall",
            dependencies: [
                "CArchive", "CArchiveShim", "DocSyncSupport", "DocSyncDocset", "DocSyncIndex", "DocSyncTarix",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: strict),
        .target(
            name: "DocSyncCatalog",
            dependencies: ["DocSyncSupport", "DocSyncFeed"], swiftSettings: strict),
        .target(name: "DocSyncMirror", dependencies: ["DocSyncSupport"], swiftSettings: strict),
        .target(
            name: "DocSyncIndex",
            dependencies: [
                "DocSyncSupport", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            swiftSettings: strict),
        .target(
            name: "DocSyncTarix",
            dependencies: ["CZlib", "CIsal", "CDeflate", "DocSyncSupport", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: strict),
        .target(
            name: "DocSync",
            dependencies: [
                "DocSyncSupport", "DocSyncHTTP", "DocSyncFeed", "DocSyncDownload", "DocSyncDocset", "DocSyncInstall",
                "DocSyncCatalog", "DocSyncIndex", "DocSyncMirror", "DocSyncTarix",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict),
        .target(
            name: "DocSyncConfigFile",
            dependencies: [
                "DocSync", "DocSyncSupport", "DocSyncCatalog", "DocSyncIndex",
                .product(name: "TOMLKit", package: "TOMLKit"),
            ],
            swiftSettings: strict),
        .target(
            name: "DocSyncMetrics",
            dependencies: ["DocSync", "DocSyncSupport", .product(name: "Prometheus", package: "swift-prometheus")],
            swiftSettings: strict),
        .target(
            name: "DocSyncServe",
            dependencies: [
                "DocSync", "DocSyncSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict),
        .target(
            name: "DocSyncCLI",
            dependencies: [
                // A thin shell over DocSync: no pipeline stage module (scripts/cli-imports).
                "DocSync", "DocSyncConfigFile", "DocSyncMetrics", "DocSyncSupport", "CDocSyncStartup",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict),
        .executableTarget(name: "docsync", dependencies: ["DocSyncCLI"], swiftSettings: strict),
        // `docsync serve` and `docsync daemon` with [serve] exec this one: `docsync` does not link Hummingbird/NIO.
        .executableTarget(
            name: "docsync-serve", dependencies: ["DocSync", "DocSyncCLI", "DocSyncServe"], swiftSettings: strict),
        .target(
            name: "TestSupport",
            // DocSyncMetrics: SyncHarness builds the engine the way `sync` does (its `[metrics]` run observers).
            dependencies: [
                "DocSync", "DocSyncMetrics", "DocSyncConfigFile", "DocSyncSupport", "DocSyncHTTP", "DocSyncInstall",
            ],
            path: "Tests/TestSupport", swiftSettings: strict),
        .testTarget(name: "SupportTests", dependencies: ["DocSyncSupport", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "HTTPTests", dependencies: ["DocSyncHTTP", "TestSupport"], swiftSettings: strict),
        .testTarget(
            name: "CatalogTests", dependencies: ["DocSyncCatalog", "DocSyncFeed", "DocSyncSupport"],
            swiftSettings: strict),
        .testTarget(name: "FeedTests", dependencies: ["DocSync", "DocSyncFeed", "TestSupport"], swiftSettings: strict),
        .testTarget(
            name: "DownloadTests", dependencies: ["DocSyncDownload", "DocSyncHTTP", "DocSyncSupport", "TestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "InstallTests",
            dependencies: ["DocSync", "DocSyncIndex", "DocSyncInstall", "DocSyncSupport", "TestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "CLITests",
            dependencies: [
                "DocSync", "DocSyncCLI", "DocSyncCatalog", "DocSyncConfigFile", "DocSyncDownload", "DocSyncFeed",
                "DocSyncHTTP", "DocSyncIndex", "DocSyncInstall", "DocSyncMirror", "DocSyncSupport", "TestSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict),
        // The sync engine's own suites; the suites that drive it for another subject live in that subject's target.
        .testTarget(
            name: "SyncTests",
            dependencies: [
                "DocSync", "DocSyncConfigFile", "DocSyncSupport", "DocSyncDownload", "TestSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict),
        // The long-running side: SyncService in a ServiceGroup, `docsync daemon`, and `status` during and after runs.
        .testTarget(
            name: "DaemonTests",
            dependencies: [
                "DocSync", "DocSyncCLI", "DocSyncConfigFile", "DocSyncDownload", "TestSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict),
        // `[metrics]`: the Prometheus text file a sync writes.
        .testTarget(name: "MetricsTests", dependencies: ["DocSync", "TestSupport"], swiftSettings: strict),
        // The root's change log, change leases and the diff of two versions, as a backend reads them.
        .testTarget(
            name: "ChangesTests", dependencies: ["DocSync", "DocSyncConfigFile", "TestSupport"], swiftSettings: strict),
        // The product's reported values: SyncEvent's JSON (golden files), SyncFailure, the public errors.
        .testTarget(
            name: "EventsTests",
            dependencies: [
                "DocSync", "DocSyncConfigFile", "DocSyncDownload", "DocSyncFeed", "DocSyncInstall", "DocSyncSupport",
                "TestSupport",
            ],
            exclude: ["Golden"],
            swiftSettings: strict),
        // The README's and the DocC articles' examples, compiled and run.
        .testTarget(
            name: "DocsTests",
            dependencies: [
                "DocSync", "DocSyncConfigFile", "TestSupport", .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict),
        // The reader side of the library: docset leases and a docset's documents.
        .testTarget(name: "ReadersTests", dependencies: ["DocSync", "TestSupport"], swiftSettings: strict),
        // SyncTests by subject: the configuration file (docsync.toml read and edited), and the plan's pure policy.
        .testTarget(
            name: "ConfigFileTests", dependencies: ["DocSync", "DocSyncConfigFile", "TestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "PlanTests", dependencies: ["DocSync", "DocSyncCatalog", "DocSyncHTTP"], swiftSettings: strict),
        .testTarget(
            name: "IndexTests",
            dependencies: [
                "DocSyncIndex", "DocSync", "DocSyncInstall", "DocSyncSupport", "DocSyncCLI", "TestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: strict),
        .testTarget(
            name: "ServeTests",
            dependencies: [
                "DocSync", "DocSyncConfigFile", "DocSyncMetrics", "DocSyncServe", "DocSyncSupport", "TestSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: strict),
        .testTarget(
            name: "TarixTests",
            dependencies: [
                "DocSyncTarix", "DocSyncSupport", "TestSupport", "DocSync", "DocSyncConfigFile", "DocSyncInstall",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: strict),
        .testTarget(
            name: "MirrorTests",
            dependencies: [
                "DocSync", "DocSyncConfigFile", "DocSyncMirror", "DocSyncSupport", "DocSyncFeed", "TestSupport",
            ],
            swiftSettings: strict),
        // A consumer of the DocSync product alone, beside GRDB: the product's names compile next to GRDB's
        // (`DocSyncConfiguration` vs GRDB's `Configuration`). scripts/product-closure checks what it links.
        .testTarget(
            name: "ProductTests",
            dependencies: ["DocSync", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: strict),
    ],
    swiftLanguageModes: [.v6]
)

// The benchmark drivers are package targets only when asked (`DOCSYNC_BENCHMARKS=1`, as Benchmarks/lib/build.sh
// sets it), so `swift build --build-tests` does not build them.
if Context.environment["DOCSYNC_BENCHMARKS"] == "1" {
    package.targets += [
        // Benchmarks/tarix-bench and tarix-read-bench: DocSyncTarix, and the library's document read.
        .executableTarget(
            name: "tarix-bench", dependencies: ["DocSyncTarix", "DocSync"], path: "Benchmarks/TarixBench",
            swiftSettings: strict),
        // Benchmarks/entries-bench's library side (DocsetEntries iterated without the CLI).
        .executableTarget(
            name: "entries-bench-driver", dependencies: ["DocSync"], path: "Benchmarks/EntriesBench",
            swiftSettings: strict),
        // Benchmarks/index-bench's docsync side (every query in one process, as a backend holding a DocsetIndex).
        .executableTarget(
            name: "search-bench-driver", dependencies: ["DocSync", "DocSyncConfigFile"],
            path: "Benchmarks/SearchBench", swiftSettings: strict),
        // Benchmarks/changes-bench's library side (SyncEngine.changes(since:) iterated without the CLI).
        .executableTarget(
            name: "changes-bench-driver", dependencies: ["DocSync"], path: "Benchmarks/ChangesBench",
            swiftSettings: strict),
        // SearchPoolTests' stall bound measured in a release build (2,000 concurrent searches beside a ticker task).
        .executableTarget(
            name: "search-stall-driver", dependencies: ["DocSync"], path: "Benchmarks/SearchStall",
            swiftSettings: strict),
    ]
}
