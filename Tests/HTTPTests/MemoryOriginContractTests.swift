import DocSyncHTTP
import Foundation
import TestSupport
import Testing

/// `MemoryOrigin` keeps the HTTP contract the tests that use it rely on: the same requests, sent through
/// `HTTPClient` to it and to a real nginx serving the same file, get the same status, `Content-Range` and body —
/// plain and ranged GETs, open and suffix ranges, unsatisfiable ranges, `If-Range` with a matching or a stale
/// validator, conditional GETs and missing files.
@Suite(
    .enabled(if: Nginx.isInstalled, "nginx is not installed (scripts/bootstrap installs it)"),
    .timeLimit(.minutes(10)), .blockingWaits)
struct MemoryOriginContractTests {
    /// One request: its header lines, where `ETAG` and `DATE` stand for the server's own validators.
    static let cases: [(name: String, headers: [String])] = [
        ("plain", []),
        ("closed range", ["Range: bytes=0-99"]),
        ("open range", ["Range: bytes=1000-"]),
        ("suffix range", ["Range: bytes=-50"]),
        ("range past the end", ["Range: bytes=5000-"]),
        ("range clipped at the end", ["Range: bytes=4000-9999"]),
        ("If-Range with the ETag", ["Range: bytes=10-19", "If-Range: ETAG"]),
        ("If-Range with the Last-Modified date", ["Range: bytes=10-19", "If-Range: DATE"]),
        ("If-Range with a stale ETag", ["Range: bytes=10-19", "If-Range: \"stale\""]),
        ("If-None-Match with the ETag", ["If-None-Match: ETAG"]),
        ("If-None-Match with another ETag", ["If-None-Match: \"other\""]),
        ("If-Modified-Since the Last-Modified date", ["If-Modified-Since: DATE"]),
    ]

    struct Answer: Equatable, CustomStringConvertible {
        var status: Int
        var contentRange: String?
        var body: [UInt8]
        var description: String { "\(status) \(contentRange ?? "-") \(body.count) bytes" }
    }

    static func answer(
        _ client: HTTPClient, _ url: String, _ headers: [String], validators: (etag: String, date: String)
    ) async throws -> Answer {
        let lines = headers.map {
            $0.replacingOccurrences(of: "ETAG", with: validators.etag)
                .replacingOccurrences(of: "DATE", with: validators.date)
        }
        let response = try await client.get(HTTPRequest(url: url, headers: lines), maxBodyBytes: 1 << 20)
        let status = response.head.status
        // An error's body is the server's own page: only a success's bytes are part of the contract.
        return Answer(
            status: status, contentRange: response.head.value("Content-Range"),
            body: (200..<300).contains(status) ? response.body : [])
    }

    @Test func theSameRequestsGetTheSameAnswersAsFromNginx() async throws {
        let directory = try TemporaryDirectory("memory-origin")
        defer { directory.remove() }
        let root = directory.appending("www")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        var generator = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        let bytes = (0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) }
        try Data(bytes).write(to: URL(fileURLWithPath: root + "/file.bin"))
        let nginx = try Nginx(root: root)
        defer { nginx.stop() }
        let origin = MemoryOrigin(root: root)
        let real = HTTPClient()
        let memory = HTTPClient(transport: origin.transport)

        func validators(_ client: HTTPClient, _ url: String) async throws -> (etag: String, date: String) {
            let head = try await client.get(HTTPRequest(url: url), maxBodyBytes: 1 << 20).head
            return (try #require(head.value("ETag")), try #require(head.value("Last-Modified")))
        }
        let nginxValidators = try await validators(real, nginx.url("file.bin"))
        let originValidators = try await validators(memory, origin.url("file.bin"))
        for (name, headers) in Self.cases {
            let expected = try await Self.answer(real, nginx.url("file.bin"), headers, validators: nginxValidators)
            let actual = try await Self.answer(memory, origin.url("file.bin"), headers, validators: originValidators)
            #expect(actual == expected, "\(name): MemoryOrigin \(actual), nginx \(expected) (seed \(generator.seed))")
        }
        let missing = try await memory.get(HTTPRequest(url: origin.url("missing.bin")), maxBodyBytes: 1 << 20)
        #expect(missing.head.status == 404)
    }

    @Test func aRedirectIsFollowedAndEndsAtItsTarget() async throws {
        let origin = MemoryOrigin()
        origin.serve("target.txt", body: Array("here\n".utf8))
        origin.redirect("old.txt", to: "/target.txt", status: 301)
        let response = try await HTTPClient(transport: origin.transport).get(
            HTTPRequest(url: origin.url("old.txt")), maxBodyBytes: 1 << 20)
        #expect(response.head.status == 200 && response.body == Array("here\n".utf8))
        #expect(response.effectiveURL == origin.url("target.txt"))
        #expect(origin.accessLog().map(\.status) == [301, 200])
    }
}
