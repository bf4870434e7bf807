import DocSyncHTTP
import Foundation
import TestSupport
import Testing

/// Keep-alive across the requests of one segmented download (speed): a connection slot keeps libcurl's
/// handle, and its next request to the same URL reuses the open connection (real nginx on loopback).
@Suite(
    .enabled(if: Nginx.isInstalled, "nginx is not installed (scripts/bootstrap installs it)"),
    .timeLimit(.minutes(10)), .blockingWaits)
struct ConnectionReuseTests {
    final class Counter: HTTPResponseReceiver {
        var status = 0
        var bytes = 0
        func head(_ head: HTTPResponseHead) { status = head.status }
        func body(_ chunk: UnsafeRawBufferPointer) -> Bool {
            bytes += chunk.count
            return true
        }
    }

    @Test func aSlotsNextRequestToTheSameURLReusesItsConnection() async throws {
        let directory = try TemporaryDirectory("reuse")
        defer { directory.remove() }
        let root = directory.appending("www")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try Data(repeating: 7, count: 256 << 10).write(to: URL(fileURLWithPath: root + "/a.bin"))
        try Data(repeating: 8, count: 1000).write(to: URL(fileURLWithPath: root + "/b.bin"))
        let nginx = try Nginx(root: root)
        defer { nginx.stop() }
        let slot = HTTPConnection()
        var connects: [Int] = []
        for (url, range) in [("a.bin", "0-65535"), ("a.bin", "65536-131071"), ("b.bin", "0-99"), ("b.bin", "100-199")] {
            let counter = Counter()
            let request = HTTPRequest(url: nginx.url(url), headers: ["Range: bytes=\(range)"], connection: slot)
            let result = await Curl.perform(request, receiver: counter)
            #expect(result.ending == .complete && counter.status == 206, "\(result)")
            connects.append(result.newConnections)
        }
        // Another URL on the slot starts a new connection (a kept one serves only its own URL). The server may
        // still close an idle connection (a loaded machine): a second request to a URL must reuse at least once.
        #expect(connects[0] == 1 && connects[2] == 1, "\(connects)")
        #expect(connects[1] == 0 || connects[3] == 0, "no request reused its slot's connection: \(connects)")
        // Without a slot, every request connects anew.
        let alone = await Curl.perform(HTTPRequest(url: nginx.url("a.bin")), receiver: Counter())
        #expect(alone.newConnections == 1)
    }

    /// A pool's slots serve any URL of their origin (feeds: many URLs on one host share a few connections); a slot
    /// checked out for another origin connects anew.
    @Test func aPoolsSlotsServeEveryURLOfTheirOrigin() async throws {
        let directory = try TemporaryDirectory("pool")
        defer { directory.remove() }
        let root = directory.appending("www")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        for name in ["a", "b", "c", "d"] {
            try Data(repeating: 7, count: 1000).write(to: URL(fileURLWithPath: root + "/\(name).xml"))
        }
        let nginx = try Nginx(root: root)
        defer { nginx.stop() }
        let other = try Nginx(root: root)
        defer { other.stop() }
        let pool = HTTPConnectionPool()
        var connects: [Int] = []
        for url in [nginx.url("a.xml"), nginx.url("b.xml"), nginx.url("c.xml"), other.url("d.xml")] {
            let slot = pool.checkout(for: url)
            let counter = Counter()
            let result = await Curl.perform(HTTPRequest(url: url, connection: slot), receiver: counter)
            pool.checkin(slot, for: url)
            #expect(result.ending == .complete && counter.status == 200 && counter.bytes == 1000, "\(result)")
            connects.append(result.newConnections)
        }
        // The server may close an idle connection on a loaded machine: at least one of the two later requests to
        // the first origin reuses; the other origin's request always connects.
        #expect(connects[0] == 1 && connects[3] == 1, "\(connects)")
        #expect(connects[1] == 0 || connects[2] == 0, "no request reused the pool's connection: \(connects)")
    }

    /// A server that closes after each response (`Connection: close`) and a transfer the receiver aborted leave
    /// nothing to reuse: every later request on the slot connects anew and completes.
    @Test func noReuseAfterConnectionCloseOrAFailedTransfer() async throws {
        let directory = try TemporaryDirectory("pool-close")
        defer { directory.remove() }
        let root = directory.appending("www")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try Data(repeating: 7, count: 1000).write(to: URL(fileURLWithPath: root + "/a.xml"))
        try Data(repeating: 8, count: 256 << 10).write(to: URL(fileURLWithPath: root + "/big.xml"))
        let closing = try Nginx(root: root, locations: "keepalive_timeout 0;")
        defer { closing.stop() }
        let pool = HTTPConnectionPool()
        for _ in 0..<3 {
            let url = closing.url("a.xml")
            let slot = pool.checkout(for: url)
            let counter = Counter()
            let result = await Curl.perform(HTTPRequest(url: url, connection: slot), receiver: counter)
            pool.checkin(slot, for: url)
            #expect(result.ending == .complete && counter.status == 200 && counter.bytes == 1000, "\(result)")
            #expect(result.newConnections == 1, "a closed connection was reused: \(result)")
        }
        let nginx = try Nginx(root: root)
        defer { nginx.stop() }
        let slot = HTTPConnection(byOrigin: true)
        let aborted = await Curl.perform(HTTPRequest(url: nginx.url("big.xml"), connection: slot), receiver: Refuser())
        #expect(aborted.ending == .abortedByReceiver, "\(aborted)")
        let counter = Counter()
        let next = await Curl.perform(HTTPRequest(url: nginx.url("a.xml"), connection: slot), receiver: counter)
        #expect(next.ending == .complete && counter.bytes == 1000 && next.newConnections == 1, "\(next)")
    }

    /// A pool nobody asks any more closes its idle connections once they are `idleLimit` old (#39): the slot and
    /// its libcurl handle are let go without another checkout or checkin, and nginx sees the connection closed.
    @Test func idleConnectionsAreClosedAfterTheIdleLimit() async throws {
        let (directory, root) = try Self.site("pool-idle", files: ["a.xml": 1000])
        defer { directory.remove() }
        let nginx = try Nginx(root: root, locations: "location = /status { stub_status; }")
        defer { nginx.stop() }
        let pool = HTTPConnectionPool(idleLimit: .milliseconds(500))
        weak var kept: HTTPConnection?
        do {
            let url = nginx.url("a.xml")
            let slot = pool.checkout(for: url)
            kept = slot
            let result = await Curl.perform(HTTPRequest(url: url, connection: slot), receiver: Counter())
            #expect(result.ending == .complete, "\(result)")
            pool.checkin(slot, for: url)
        }
        #expect(pool.idleCount == 1 && kept != nil)
        // The kept connection, and the status request's own.
        #expect(try await Self.activeConnections(nginx) >= 2)
        try Poll.until("the idle slot let go", timeout: 30) { pool.idleCount == 0 && kept == nil }
        try await Poll.until("nginx sees the kept connection closed", timeout: 30) {
            try await Self.activeConnections(nginx) == 1
        }
        // The pool still works after its sweep ended: a new slot, a new connection.
        let slot = pool.checkout(for: nginx.url("a.xml"))
        let again = await Curl.perform(HTTPRequest(url: nginx.url("a.xml"), connection: slot), receiver: Counter())
        #expect(again.ending == .complete && again.newConnections == 1, "\(again)")
    }

    /// A temporary folder with a `www` root holding `files` (name: length) for nginx.
    static func site(_ name: String, files: [String: Int]) throws -> (TemporaryDirectory, String) {
        let directory = try TemporaryDirectory(name)
        let root = directory.appending("www")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        for (file, count) in files {
            try Data(repeating: 7, count: count).write(to: URL(fileURLWithPath: root + "/" + file))
        }
        return (directory, root)
    }

    /// nginx's count of open client connections (`stub_status`), asked on a connection of its own.
    static func activeConnections(_ nginx: Nginx) async throws -> Int {
        let response = try await HTTPClient().get(HTTPRequest(url: nginx.url("status")), maxBodyBytes: 4096)
        let text = String(decoding: response.body, as: UTF8.self)
        let line = text.split(separator: "\n").first { $0.hasPrefix("Active connections:") } ?? ""
        return Int(line.split(separator: " ").last ?? "") ?? -1
    }

    /// `receiveBufferSize` bounds what libcurl reads at once (a segmented download's share of one budget,
    /// `TransferMemory`): with 4 KiB no chunk is larger; with the 64 KiB default chunks reach libcurl's 16 KiB
    /// `CURL_MAX_WRITE_SIZE`. Either way every byte arrives.
    @Test func theReceiveBufferBoundsEachRead() async throws {
        let (directory, root) = try Self.site("buffer", files: ["a.bin": 4 << 20])
        defer { directory.remove() }
        let nginx = try Nginx(root: root)
        defer { nginx.stop() }
        var largest: [Int] = []
        for size in [4 << 10, 64 << 10] {
            var options = HTTPOptions()
            options.receiveBufferSize = size
            let chunks = ChunkSizes()
            let result = await Curl.perform(HTTPRequest(url: nginx.url("a.bin"), options: options), receiver: chunks)
            #expect(result.ending == .complete && chunks.bytes == 4 << 20, "\(result)")
            largest.append(chunks.largest)
        }
        #expect(largest[0] <= 4 << 10 && largest[1] > 4 << 10, "largest chunks with 4 and 64 KiB: \(largest)")
    }

    final class ChunkSizes: HTTPResponseReceiver {
        var bytes = 0
        var largest = 0
        func head(_ head: HTTPResponseHead) {}
        func body(_ chunk: UnsafeRawBufferPointer) -> Bool {
            bytes += chunk.count
            largest = max(largest, chunk.count)
            return true
        }
    }

    /// Refuses the first body chunk.
    final class Refuser: HTTPResponseReceiver {
        func head(_ head: HTTPResponseHead) {}
        func body(_ chunk: UnsafeRawBufferPointer) -> Bool { false }
    }
}
