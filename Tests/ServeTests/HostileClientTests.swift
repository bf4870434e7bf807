import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Clients holding connections without finishing requests, against the real server: a head or a body trickled a
/// byte at a time is closed at its deadline (`header_timeout`, `body_timeout`, counted from the phase's start, not
/// reset by the trickle), and when `max_connections` is near, a new connection closes the one idle longest — never
/// the new one, never one answered more recently.
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct HostileClientTests {
    /// Whether the server closed `connection` (a read would end): a peek that does not wait.
    static func isClosed(_ connection: RawHTTP.Connection) -> Bool {
        var byte: UInt8 = 0
        let got = recv(connection.fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        return got == 0 || (got < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
    }

    /// Sends `bytes` one at a time, 100 ms apart, until the server closes the connection; returns how long that
    /// took from the first byte and how many bytes were sent.
    static func trickle(_ bytes: [UInt8], on connection: RawHTTP.Connection) async throws -> (Duration, Int) {
        let start = ContinuousClock.now
        for (index, byte) in bytes.enumerated() {
            if isClosed(connection) { return (ContinuousClock.now - start, index) }
            guard (try? connection.send([byte])) != nil else { return (ContinuousClock.now - start, index) }
            try await Task.sleep(for: .milliseconds(100))  // the trickle's pace, not a wait
        }
        return (ContinuousClock.now - start, bytes.count)
    }

    @Test func aTrickledHeadIsClosedAtItsDeadline() async throws {
        let h = try ServeHarness(extra: "idle_timeout = \"30s\"\nheader_timeout = \"1s\"")
        defer { h.remove() }
        try await h.start()
        let connection = try RawHTTP.Connection(port: h.port)
        defer { connection.close() }
        let padding = String(repeating: "a", count: 400)
        let head = Array("GET /api/docsets HTTP/1.1\r\nHost: x\r\nX-Slow: \(padding)\r\n\r\n".utf8)
        let (took, sent) = try await Self.trickle(head, on: connection)
        // Closed a second after the first byte (and a little for a loaded machine), the trickle going on all along.
        #expect(sent < head.count, "the whole head trickled in \(took) without being closed")
        #expect(took >= .milliseconds(900) && took < .seconds(10), "closed after \(took), \(sent) bytes")
        // Another client is answered as ever.
        #expect(try await h.http.get("/api/docsets").status == 200)
        try await h.stop()
    }

    @Test func aTrickledBodyIsClosedAtItsDeadline() async throws {
        let h = try ServeHarness(extra: "idle_timeout = \"30s\"\nbody_timeout = \"1s\"")
        defer { h.remove() }
        try await h.start()
        let connection = try RawHTTP.Connection(port: h.port)
        defer { connection.close() }
        try connection.send(Array("GET /api/docsets HTTP/1.1\r\nHost: x\r\nContent-Length: 400\r\n\r\n".utf8))
        let (took, sent) = try await Self.trickle([UInt8](repeating: 97, count: 400), on: connection)
        #expect(sent < 400, "the whole body trickled in \(took) without being closed")
        #expect(took >= .milliseconds(900) && took < .seconds(10), "closed after \(took), \(sent) bytes")
        try await h.stop()
    }

    @Test func whenFullTheConnectionIdleLongestIsClosedForANewOne() async throws {
        // max_connections 32: past 30 open (15/16), each new connection closes the one idle longest.
        let h = try ServeHarness(extra: "max_connections = 32")
        defer { h.remove() }
        try await h.start()
        let request = Array("GET /api/docsets HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
        var held: [RawHTTP.Connection] = []
        defer { for connection in held { connection.close() } }
        // 30 kept-alive connections, each answered once, in order: the first is idle longest.
        for _ in 0..<30 {
            let connection = try RawHTTP.Connection(port: h.port)
            held.append(connection)
            try connection.send(request)
            #expect(try await FastPathTests.read(connection, heads: [false]).first?.status == 200)
        }
        // The first one answered again: now the second is idle longest.
        try held[0].send(request)
        #expect(try await FastPathTests.read(held[0], heads: [false]).first?.status == 200)
        for round in 0..<3 {
            let newcomer = try RawHTTP.Connection(port: h.port)
            held.append(newcomer)
            try newcomer.send(request)
            #expect(try await FastPathTests.read(newcomer, heads: [false]).first?.status == 200, "round \(round)")
            let evicted = held[round + 1]
            try Poll.until("connection \(round + 1) closed for a new one", timeout: 30) { Self.isClosed(evicted) }
        }
        let open = held.indices.filter { !Self.isClosed(held[$0]) }
        #expect(open == [0] + Array(4..<33), "open: \(open)")
        try await h.stop()
    }
}
