import DocSyncHTTP
import Testing

@Suite(.timeLimit(.minutes(5))) struct HTTPHeadParserTests {
    private func heads(_ lines: [String]) -> [HTTPResponseHead] {
        var parser = HTTPHeadParser()
        return lines.compactMap { parser.consume($0 + "\r\n") }
    }

    @Test func everyStatusLineStartsAFreshHead() {
        let result = heads([
            "HTTP/1.1 100 Continue", "",
            "HTTP/1.1 302 Found", "Location: /b", "ETag: \"redirect\"", "",
            "HTTP/1.1 206 Partial Content", "Content-Range: bytes 5-9/10", "Content-Length: 5", "",
        ])
        #expect(result.map(\.status) == [100, 302, 206])
        #expect(result[2].value("etag") == nil)  // the redirect's ETag does not leak into the final response
        #expect(result[2].value("content-range") == "bytes 5-9/10")
        #expect(result[0].isInterim && result[1].isRedirect)
    }

    @Test func repeatedFieldsAreKeptApartAndFoldedLinesJoined() {
        let result = heads([
            "HTTP/2 206", "content-range: bytes 0-1/2", "Content-Range: bytes 0-0/2", "X-A: one", " two", "",
        ])
        #expect(result[0].values("Content-Range").count == 2)
        #expect(result[0].value("Content-Range") == nil)
        #expect(result[0].value("x-a") == "one two")
        #expect(result[0].status == 206)
    }

    @Test func trailersAfterTheFinalHeadAreIgnored() {
        var parser = HTTPHeadParser()
        _ = parser.consume("HTTP/1.1 200 OK\r\n")
        _ = parser.consume("\r\n")
        #expect(parser.consume("X-Trailer: 1\r\n") == nil)
        #expect(parser.consume("\r\n") == nil)
        #expect(parser.completed.count == 1)
    }
}
