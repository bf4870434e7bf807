import DocSync
import DocSyncConfigFile
import Foundation
import TestSupport
import Testing

/// Every numeric input — the configuration's durations, sizes and counts, and the CLI's limits,
/// intervals, sizes and counts — fed boundary values (0, 1, -1, Int64.max, Int64.min, 20 digits, sums that
/// overflow). Each is accepted within its documented bound or refused with a message naming it; none traps.
@Suite(
    .enabled(if: Nginx.isInstalled, "nginx is not installed (scripts/bootstrap installs it)"),
    .timeLimit(.minutes(10)), .blockingWaits)
struct NumericInputTests {
    static let boundaryTexts = [
        "0", "1", "-1", "9223372036854775807", "-9223372036854775808", "99999999999999999999", "18446744073709551616",
        "9223372036854775807s9223372036854775807s", "9223372036854775807d", "106751991167300d", "3650d", "3651d",
        "5000000000000000000s5000000000000000000s", "8796093022208K", "8796093022208G", "1125899906842624",
        "1125899906842625", "1G1G", "", " ", "1e9", "0x10", "+5", "٣",
    ]

    @Test func durationsAreBoundedToTenYears() {
        for text in Self.boundaryTexts {
            guard let value = ValueSyntax.duration(text) else { continue }
            #expect(value >= .zero && value <= .seconds(ValueSyntax.maximumDurationSeconds), "\(text) -> \(value)")
        }
        #expect(ValueSyntax.duration("3650d") == .seconds(3650 * 86400))
        #expect(ValueSyntax.duration("3651d") == nil)
        #expect(ValueSyntax.duration("9223372036854775807s9223372036854775807s") == nil)
        #expect(ValueSyntax.duration("-1") == nil)
        #expect(ValueSyntax.duration("1h30m") == .seconds(5400))
    }

    @Test func byteSizesAreBoundedToOnePebibyte() {
        for text in Self.boundaryTexts {
            guard let value = ValueSyntax.byteSize(text) else { continue }
            #expect((0...ValueSyntax.maximumByteSize).contains(value), "\(text) -> \(value)")
        }
        #expect(ValueSyntax.byteSize("1125899906842624") == 1 << 50)
        #expect(ValueSyntax.byteSize("1125899906842625") == nil)
        #expect(ValueSyntax.byteSize("8796093022208G") == nil)
        #expect(ValueSyntax.byteSize("5M") == 5 << 20)
    }

    /// Every numeric key of the configuration, as a TOML integer and as a string.
    static let keys: [(table: String, key: String)] = [
        ("", "post_install_timeout"), ("network", "concurrency"), ("network", "per_host"),
        ("network", "connections"), ("network", "retries"), ("network", "connect_timeout"),
        ("network", "stall_timeout"), ("network", "rate_limit"), ("network", "min_speed"),
        ("network", "feed_timeout"), ("install", "grace_period"), ("install", "partial_max_age"),
        ("install", "max_archive_size"), ("install", "min_free_space"), ("mirror", "keep"),
        ("mirror", "grace_period"),
    ]

    @Test(arguments: keys.indices)
    func everyConfigurationNumberIsBoundedOrNamed(_ index: Int) {
        let (table, key) = Self.keys[index]
        let integers = ["0", "1", "-1", "9223372036854775807", "-9223372036854775808", "2147483648", "315360001"]
        let values = integers + Self.boundaryTexts.map { "\"\($0)\"" }
        for value in values {
            var toml = table.isEmpty ? "\(key) = \(value)\n" : ""
            if !table.isEmpty {
                toml += "[\(table)]\n\(key) = \(value)\n"
                if table == "mirror" { toml += "dir = \"/tmp/m\"\nbase_url = \"http://127.0.0.1/m\"\n" }
            }
            do {
                let config = try DocSyncConfigurationLoader(environment: ["HOME": "/tmp"])
                    .parse(toml, file: "docsync.toml", relativeTo: "/tmp")
                let durations = [
                    config.postInstallTimeout, config.network.connectTimeout, config.network.stallTimeout,
                    config.network.feedTimeout, config.install.gracePeriod, config.install.partialMaxAge,
                ]
                for duration in durations {
                    #expect(duration <= .seconds(ValueSyntax.maximumDurationSeconds), "\(key) = \(value)")
                }
                let sizes = [
                    config.network.rateLimit, config.network.minSpeed, config.install.maxArchiveSize,
                    config.install.minFreeSpace,
                ]
                for size in sizes { #expect((0...ValueSyntax.maximumByteSize).contains(size), "\(key) = \(value)") }
            } catch {
                #expect(error.description.contains(key), "\(key) = \(value): \(error)")
            }
        }
    }

    static let cliNumbers = [
        "0", "1", "-1", "9223372036854775807", "-9223372036854775808", "4611686018427387904",
        "99999999999999999999", "9223372036854775807s9223372036854775807s", "3651d",
    ]

    /// The numeric options of commands that ask no server (the feed is a local file).
    static let cliCases: [[String]] = cliNumbers.flatMap { n in
        [
            ["search", "sym", "--limit=\(n)", "{config}"],
            ["install", "/nonexistent.tgz", "--root", "/tmp/none", "--name", "A", "--grace-seconds=\(n)"],
            ["daemon", "--interval=\(n)", "{config}"],
            ["daemon", "--interval=2h", "--jitter=\(n)", "{config}"],
            ["feed", "parse", "{www}/f.atom", "--max-bytes=\(n)"],
        ]
    }

    /// The numeric options of the commands whose numbers bound a transfer (`fetch`'s connections and size, `feed
    /// parse`'s bytes of a URL): they reach a real nginx.
    static let networkCLICases: [[String]] = cliNumbers.flatMap { n in
        [
            ["feed", "parse", "{url}f.atom", "--max-bytes=\(n)"],
            ["fetch", "{url}A-1.tgz", "-o", "{dir}/out.tgz", "--connections=\(n)", "{config}"],
            ["fetch", "{url}A-1.tgz", "-o", "{dir}/out.tgz", "--max-size=\(n)", "{config}"],
        ]
    }

    /// The CLI's numeric options: a usage error, a clean failure or a result — never a signal. `search` finds A,
    /// installed in process from a `MemoryOrigin`.
    @Test(arguments: cliCases)
    func everyCLINumberIsACleanAnswer(_ template: [String]) async throws {
        let h = try SyncHarness.inMemory()
        try h.publishArchive(DocsetFixture.make(version: "1"), as: "A-1.tgz", folder: "A")
        try h.writeAtomFeed(
            "f.atom", [.init(identifier: "org.a", title: "A", version: "1", archive: h.url("A-1.tgz"))])
        try h.writeConfig(feeds: ["\(h.www)/f.atom"])
        if template.first == "search" {
            let first = try await h.sync()
            #expect(first.status == 0, "\(first.lines)")
        }
        try Self.expectACleanAnswer(template, h)
    }

    /// The transfer-bounding numeric options: a usage error, a clean failure or a result — never a signal.
    @Test(arguments: networkCLICases)
    func everyNetworkCLINumberIsACleanAnswer(_ template: [String]) throws {
        let h = try SyncHarness()
        try h.publishArchive(DocsetFixture.make(version: "1"), as: "A-1.tgz", folder: "A")
        try h.writeAtomFeed("f.atom", [.init(identifier: "org.a", title: "A", version: "1", archive: "A-1.tgz")])
        try h.writeConfig(feeds: ["f.atom"])
        try Self.expectACleanAnswer(template, h)
    }

    /// Runs `template` (`{config}`, `{www}`, `{url}`, `{dir}` filled in from `h`) as the `docsync` binary.
    static func expectACleanAnswer(_ template: [String], _ h: SyncHarness) throws {
        let arguments = template.flatMap { argument -> [String] in
            if argument == "{config}" { return ["--config", h.configPath] }
            return [
                argument.replacingOccurrences(of: "{www}", with: h.www)
                    .replacingOccurrences(of: "{url}", with: h.url(""))
                    .replacingOccurrences(of: "{dir}", with: h.dir.path)
            ]
        }
        let process = try DocSyncProcess(arguments)
        let deadline = template.first == "daemon" ? 8.0 : 30.0
        try? Poll.until("docsync \(arguments) to exit", timeout: deadline) { !process.process.isRunning }
        let killed = process.process.isRunning
        if killed { process.kill() }
        let run = process.finish()
        if template.first == "daemon", killed { return }  // a valid interval: the daemon runs, it did not trap
        #expect(!killed, "\(arguments) hung")
        #expect(run.status < 128, "\(arguments) died on signal \(run.status - 128): \(run.standardError)")
        if template.first == "search", let limit = Int(template[2].dropFirst("--limit=".count)) {
            if (1...SearchQuery.maximumLimit).contains(limit) {
                #expect(run.status == 0, "\(arguments): \(run.standardError)")
                #expect(run.standardOutput.contains("sym"), "\(arguments): \(run.standardOutput)")
            } else {
                #expect(run.status == 64, "\(arguments) is a usage error: \(run.standardError)")
                #expect(run.standardError.contains("--limit"), "\(arguments): \(run.standardError)")
            }
        }
    }

    /// The library's numbers: a `DocSyncConfiguration` set by code with every count at `Int.max`, `Int.min` or 0, durations
    /// negative or near `Int64.max` seconds and sizes at `Int64.min` / `Int64.max` still syncs (clamped into the
    /// documented ranges by `SyncEngine.init`), and the search limit is any `Int` (`SearchLimitTests`).
    @Test(arguments: [Int.max, Int.min, 0, -1])
    func extremeLibraryConfigurationsAreClampedAndSync(_ count: Int) async throws {
        let h = try SyncHarness.inMemory()
        try h.publishArchive(DocsetFixture.make(version: "1"), as: "A-1.tgz", folder: "A")
        try h.writeAtomFeed("f.atom", [.init(identifier: "org.a", title: "A", version: "1", archive: "A-1.tgz")])
        try h.writeConfig(feeds: ["f.atom"])
        var configuration = try h.configuration()
        let huge = count == Int.max
        configuration.network.concurrency = count
        configuration.network.perHost = count
        configuration.network.connections = count
        configuration.network.retries = count
        let duration: Duration = huge ? .seconds(Int64.max) : (count == 0 ? .zero : .seconds(-1))
        configuration.network.connectTimeout = huge ? duration : .seconds(30)
        configuration.network.stallTimeout = huge ? duration : .seconds(60)
        configuration.network.feedTimeout = huge ? duration : .seconds(60)
        configuration.install.gracePeriod = duration
        configuration.install.partialMaxAge = duration
        configuration.postInstallTimeout = duration
        let size: Int64 = huge ? Int64.max : (count == 0 ? 0 : Int64.min)
        configuration.network.rateLimit = size
        configuration.network.minSpeed = huge ? size : 1
        configuration.install.maxArchiveSize = size
        configuration.install.minFreeSpace = huge ? 0 : size
        let engine = SyncEngine(configuration: configuration, transport: h.origin.transport)
        #expect(DocSyncConfiguration.concurrencyRange.contains(engine.configuration.network.concurrency))
        #expect(DocSyncConfiguration.connectionsRange.contains(engine.configuration.network.connections))
        #expect(DocSyncConfiguration.retriesRange.contains(engine.configuration.network.retries))
        #expect(engine.configuration.install.gracePeriod <= .seconds(ValueSyntax.maximumDurationSeconds))
        #expect(engine.configuration.install.gracePeriod >= .zero)
        #expect((0...ValueSyntax.maximumByteSize).contains(engine.configuration.install.maxArchiveSize))
        var installed: [String] = []
        for try await event in engine.sync() {
            if case .installed(let docset) = event { installed.append(docset.name) }
        }
        #expect(installed == ["A"], "count \(count)")
    }
}
