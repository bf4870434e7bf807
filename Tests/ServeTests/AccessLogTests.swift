import Foundation
import TestSupport
import Testing

@testable import DocSyncServe

/// The buffered access log: lines are written whole and in order when enough are pending, on ``AccessLog/flush()``
/// and when the log is released; a running server's lines reach the file within about a second, without a stop.
@Suite(.timeLimit(.minutes(10))) struct AccessLogTests {
    static func contents(_ path: String) -> String {
        (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }

    @Test func linesAreBufferedThenWrittenWholeAndInOrder() throws {
        let dir = try TemporaryDirectory("access-log")
        defer { dir.remove() }
        let path = dir.appending("access.log")
        var log: AccessLog? = try AccessLog(destination: path)
        log?.record(method: .get, target: "/d/A@1/first.html", remote: "127.0.0.1", status: 200, bytes: 10)
        #expect(Self.contents(path).isEmpty, "one line stays buffered")
        log?.flush()
        #expect(Self.contents(path).hasSuffix("\"GET /d/A@1/first.html HTTP/1.1\" 200 10\n"))
        // Enough lines are written without a flush, whole (every line in the file ends where a line ends).
        var count = 1
        while Self.contents(path).utf8.count < AccessLog.bufferBytes {
            count += 1
            log?.record(method: .get, target: "/d/A@1/page\(count).html", remote: "::1", status: 200, bytes: count)
            #expect(count < 10_000, "lines were written once \(AccessLog.bufferBytes) bytes were pending")
            if count >= 10_000 { break }
        }
        #expect(Self.contents(path).hasSuffix("\"GET /d/A@1/page\(count).html HTTP/1.1\" 200 \(count)\n"))
        log?.record(method: .head, target: "/d/A@1/last.html", remote: "::1", status: 304, bytes: 0)
        log = nil  // released: the rest is written
        let lines = Self.contents(path).split(separator: "\n")
        #expect(lines.count == count + 1)
        #expect(lines.last?.hasSuffix("\"HEAD /d/A@1/last.html HTTP/1.1\" 304 0") == true)
        #expect(lines.dropFirst().dropLast().enumerated().allSatisfy { k, line in
            line.hasSuffix("\"GET /d/A@1/page\(k + 2).html HTTP/1.1\" 200 \(k + 2)")
        }, "in order")
    }

    @Test func aRunningServersLinesReachTheFileWithinASecond() async throws {
        let h = try ServeHarness()
        defer { h.remove() }
        let v1 = try await h.install("A", version: "1")
        try await h.start()
        let page = "/d/\(ServeHarness.versionName(v1))/page0.html"
        #expect(try await h.http.get(page).status == 200)
        let path = h.dir.appending("access.log")
        try await Poll.until("the access log line to be written", timeout: 30) { () async in
            await Task.yield()
            return Self.contents(path).contains("\"GET \(page) HTTP/1.1\" 200")
        }
        try await h.stop()
    }
}
