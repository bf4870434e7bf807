import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// `docsync serve` and `docsync daemon` with `[serve]` run the HTTP front by exec'ing `docsync-serve` (the
/// `docsync` binary does not link Hummingbird/NIO): the same process and command line, the server answers and
/// stops on SIGTERM; without `docsync-serve` beside `docsync`, a clear error and exit 69.
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct ServeExecutableTests {
    /// A configuration with an empty root and `[serve]` on a free loopback port (port 0: the log names it), with
    /// `extra` lines in `[serve]`.
    static func configure(_ dir: TemporaryDirectory, extra: String = "") throws -> String {
        for folder in ["root", "staging", "state"] {
            try FileManager.default.createDirectory(atPath: dir.appending(folder), withIntermediateDirectories: true)
        }
        let path = dir.appending("docsync.toml")
        try """
            root = "root"
            staging = "staging"
            state = "state"
            [serve]
            listen = "127.0.0.1:0"
            \(extra)

            """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Waits for the `listening on http://127.0.0.1:PORT/` line; returns the port.
    static func listeningPort(_ log: OutputReader) throws -> Int {
        let marker = "listening on http://127.0.0.1:"
        let found = log.read(timeout: 60) { $0.contains(marker) && $0.components(separatedBy: marker)[1].contains("/") }
        try #require(found, "no listening line: \(log.text)")
        let rest = log.text.components(separatedBy: marker)[1]
        return try #require(Int(rest.prefix { $0.isNumber }), "\(log.text)")
    }

    /// Runs `arguments` with `docsync`; checks that the same process became `docsync-serve`, answers `GET /`, and
    /// exits 0 on SIGTERM with `stopped` in its log.
    func serves(_ arguments: [String], stopped: String) async throws {
        let dir = try TemporaryDirectory("serve-exec")
        defer { dir.remove() }
        let config = try Self.configure(dir)
        let docsync = try DocSyncProcess(arguments + ["--config", config])
        let pid = docsync.process.processIdentifier
        defer { if docsync.process.isRunning { docsync.kill() } }
        let log = OutputReader(docsync.errors!)
        let port = try Self.listeningPort(log)
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")
        #expect(executable.hasSuffix("/docsync-serve"), "pid \(pid) runs \(executable)")
        let reply = try await RawHTTP(port: port).get("/")
        #expect(reply.status == 200, "GET / on \(port): \(reply.status) \(reply.text)")
        kill(pid, SIGTERM)
        log.read(timeout: 60) { $0.contains(stopped) }
        let status = docsync.process.waitForExit()  // (the log pipe is non-blocking now: no `finish()`)
        #expect(status == 0, "\(log.text)")
    }

    @Test func serveExecsDocsyncServe() async throws {
        try await serves(["serve"], stopped: "listening on")
    }

    @Test func daemonWithServeExecsDocsyncServe() async throws {
        try await serves(["daemon", "--interval", "1h", "--jitter", "0s"], stopped: "docsync daemon stopped")
    }

    @Test func withoutDocsyncServeBesideItServeSaysSo() throws {
        let dir = try TemporaryDirectory("serve-missing")
        defer { dir.remove() }
        let config = try Self.configure(dir)
        let alone = dir.appending("docsync")
        try FileManager.default.copyItem(atPath: Tool.docsyncBinary, toPath: alone)
        for arguments in [["serve"], ["daemon", "--interval", "1h"]] {
            let result = try Tool.run(alone, arguments + ["--config", config])
            #expect(result.status == 69, "\(arguments): \(result.status) \(result.standardError)")
            #expect(result.standardError.contains("docsync-serve"), "\(result.standardError)")
            #expect(result.standardError.contains("No such file"), "\(result.standardError)")
        }
    }
}
