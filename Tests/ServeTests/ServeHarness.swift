import DocSync
import DocSyncConfigFile
import DocSyncServe
import Foundation
import Logging
import ServiceLifecycle
import Synchronization
import TestSupport

/// A docset root with docsets installed by real installs, and the real server on a free loopback port, run in a
/// service group as the CLI runs it.
final class ServeHarness: @unchecked Sendable {
    let dir: TemporaryDirectory
    let engine: SyncEngine
    let configuration: DocSyncConfiguration
    private(set) var port = 0
    private var group: ServiceGroup?
    private var running: Task<Void, any Error>?
    var root: String { dir.appending("root") }
    var configPath: String { dir.appending("docsync.toml") }
    var http: RawHTTP { RawHTTP(port: port) }

    init(grace: String = "0s", extra: String = "") throws {
        dir = try TemporaryDirectory("serve")
        let toml = """
            root = "root"
            staging = "staging"
            state = "state"
            [install]
            grace_period = "\(grace)"
            [[group]]
            name = "web"
            docsets = ["A"]
            [serve]
            listen = "127.0.0.1:0"
            access_log = "access.log"
            \(extra)

            """
        try toml.write(toFile: dir.appending("docsync.toml"), atomically: true, encoding: .utf8)
        configuration = try DocSyncConfigurationLoader().load(file: dir.appending("docsync.toml"))
        engine = SyncEngine(configuration: configuration)
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    /// Installs a generated docset of `version` as `name` from a local archive.
    @discardableResult
    func install(
        _ name: String, version: String, fixture: DocsetFixture? = nil, layout: InstalledDocset.Layout? = nil
    ) async throws -> InstalledDocset {
        try await engine.installGenerated(name, version: version, fixture: fixture, layout: layout, in: dir)
    }

    /// One sync with nothing to fetch: prunes replaced versions past their grace period.
    func prune() async throws {
        try await engine.pruneBySyncing()
    }

    /// Starts the server (telling `observers` its totals); returns once it accepts connections.
    func start(observers: [any ServeObserver] = []) async throws {
        let bound = PortBox()
        var logger = Logger(label: "serve-test")
        logger.logLevel = .warning
        let server = try DocServer(
            configuration: configuration, settings: configuration.serve!, logger: logger, observers: observers,
            onListening: { bound.set($0) })
        let group = ServiceGroup(
            configuration: .init(services: [.init(service: server)], gracefulShutdownSignals: [], logger: logger))
        self.group = group
        running = BlockingTestExecutor.task { try await group.run() }
        // The service group runs on a thread of its own (`BlockingTestExecutor.task`), never queued behind the suite's
        // other tests on the cooperative pool: it listens within the deadline even under a full parallel suite.
        try await Poll.until("the server to listen", timeout: 30) { () async in bound.get() != nil }
        port = bound.get()!
    }

    /// Graceful shutdown; waits for the service group to return.
    func stop() async throws {
        await group?.triggerGracefulShutdown()
        try await running?.value
        running = nil
    }

    func remove() { dir.remove() }

    /// The version folder name (`NAME@ID`) of an installed docset.
    static func versionName(_ docset: InstalledDocset) -> String {
        URL(fileURLWithPath: docset.path).lastPathComponent
    }
}

final class PortBox: Sendable {
    private let port = Mutex<Int?>(nil)
    func set(_ value: Int) { port.withLock { $0 = value } }
    func get() -> Int? { port.withLock { $0 } }
}
