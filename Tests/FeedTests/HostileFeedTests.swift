import DocSyncFeed
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Hostile documents: each row asserts the exact outcome, that a loopback listener named in the document got no
/// connection, and that a secret local file named in the document never shows up in the result or the error.
@Suite(.timeLimit(.minutes(10)))
struct HostileFeedTests {
    /// What a row's document may point at.
    struct Targets {
        let port: Int
        let secretPath: String
    }

    struct Row: Sendable, CustomTestStringConvertible {
        let rule: String
        var encoding = String.Encoding.utf8
        var limits = FeedLimits()
        let document: @Sendable (Targets) -> String
        /// nil: the document parses (its dangerous parts ignored).
        let error: FeedError?
        var testDescription: String { rule }
    }

    static let url = "https://feeds.example/hostile.atom"
    static let atomOpen = "<feed xmlns=\"http://www.w3.org/2005/Atom\">"

    static func refused(_ line: Int?, _ column: Int?, _ reason: FeedError.Reason) -> FeedError {
        FeedError(feed: url, line: line, column: column, reason: reason)
    }

    static func billionLaughs(_ declaration: String) -> String {
        var text = "\(declaration)\n<!DOCTYPE feed [\n<!ENTITY lol \"lol\">\n"
        for level in 1...9 {
            let previous = level == 1 ? "lol" : "lol\(level - 1)"
            text += "<!ENTITY lol\(level) \"\(String(repeating: "&\(previous);", count: 10))\">\n"
        }
        return text + "]>\n\(atomOpen)<title>&lol9;</title></feed>"
    }

    static let rows: [Row] = [
        Row(
            rule: "XXE reading a local file",
            document: {
                "<?xml version=\"1.0\"?>\n<!DOCTYPE feed [<!ENTITY xxe SYSTEM \"file://\($0.secretPath)\">]>\n"
                    + "\(atomOpen)<title>&xxe;</title></feed>"
            },
            error: refused(2, 1, .doctypeForbidden)),
        Row(
            rule: "XXE reading a local file, UTF-16",
            encoding: .utf16LittleEndian,
            document: {
                "\u{FEFF}<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n"
                    + "<!DOCTYPE feed [<!ENTITY xxe SYSTEM \"file://\($0.secretPath)\">]>\n"
                    + "\(atomOpen)<title>&xxe;</title></feed>"
            },
            error: refused(2, 1, .doctypeForbidden)),
        Row(
            rule: "XXE over the network",
            document: {
                "<!DOCTYPE feed [<!ENTITY xxe SYSTEM \"http://127.0.0.1:\($0.port)/xxe\">]>"
                    + "\(atomOpen)<title>&xxe;</title></feed>"
            },
            error: refused(1, 1, .doctypeForbidden)),
        Row(
            rule: "external DTD",
            document: {
                "<?xml version=\"1.0\"?>\n\n<!DOCTYPE feed SYSTEM \"http://127.0.0.1:\($0.port)/feed.dtd\">"
                    + "\(atomOpen)</feed>"
            },
            error: refused(3, 1, .doctypeForbidden)),
        Row(
            rule: "external DTD, UTF-16 big-endian",
            encoding: .utf16BigEndian,
            document: { "<!DOCTYPE feed SYSTEM \"http://127.0.0.1:\($0.port)/feed.dtd\">\(atomOpen)</feed>" },
            error: refused(1, 1, .doctypeForbidden)),
        Row(
            rule: "external parameter entity",
            document: {
                "<!-- a comment first --><!DOCTYPE feed [<!ENTITY % p SYSTEM \"http://127.0.0.1:\($0.port)/p\"> %p;]>"
                    + "\(atomOpen)</feed>"
            },
            error: refused(1, 25, .doctypeForbidden)),
        Row(
            rule: "billion laughs",
            document: { _ in billionLaughs("<?xml version=\"1.0\"?>") },
            error: refused(2, 1, .doctypeForbidden)),
        Row(
            rule: "billion laughs, UTF-16",
            encoding: .utf16LittleEndian,
            document: { _ in billionLaughs("\u{FEFF}<?xml version=\"1.0\" encoding=\"UTF-16\"?>") },
            error: refused(2, 1, .doctypeForbidden)),
        Row(
            rule: "XInclude is never processed",
            document: {
                "\(atomOpen.dropLast()) xmlns:xi=\"http://www.w3.org/2001/XInclude\">"
                    + "<xi:include href=\"http://127.0.0.1:\($0.port)/inc.xml\"/>"
                    + "<entry><id><xi:include href=\"file://\($0.secretPath)\" parse=\"text\"/></id></entry></feed>"
            },
            error: nil),
        Row(
            rule: "a stylesheet processing instruction is never fetched",
            document: {
                "<?xml-stylesheet type=\"text/xsl\" href=\"http://127.0.0.1:\($0.port)/s.xsl\"?>\(atomOpen)</feed>"
            },
            error: nil),
        Row(
            rule: "not XML",
            document: { _ in "\u{0}\u{1}binary garbage" },
            error: refused(1, 1, .notXML(code: 4, message: "Document is empty"))),
        Row(
            rule: "truncated",
            document: { _ in "\(atomOpen)<entry><link rel=\"enclosure\" href=\"https://feeds.example/a.xar" },
            error: refused(1, 105, .truncated)),
        Row(
            rule: "too deep",
            document: { _ in atomOpen + String(repeating: "<a>", count: 10_000) },
            error: refused(1, nil, .tooDeep(limit: 64))),
        Row(
            rule: "too deep for libxml2 itself",
            limits: FeedLimits(maxDepth: 100_000),
            document: { _ in atomOpen + String(repeating: "<a>", count: 10_000) },
            error: refused(1, 813, .tooDeep(limit: 256))),
        Row(
            rule: "over the size cap",
            limits: FeedLimits(maxBytes: 64 << 10),
            document: { _ in atomOpen + String(repeating: "<entry><id>x</id></entry>\n", count: 10_000) + "</feed>" },
            error: refused(nil, nil, .tooLarge(limit: 64 << 10))),
    ]

    @Test(arguments: rows)
    func refusesWithoutReadingOrFetching(_ row: Row) throws {
        let listener = try LoopbackListener()
        let directory = try TemporaryDirectory("docsync-feed-test")
        defer { directory.remove() }
        let secret = "docsync-secret-\(UUID().uuidString)"
        let secretPath = directory.write("secret.txt", secret)
        let text = row.document(Targets(port: listener.port, secretPath: secretPath))
        let bytes = try #require(text.data(using: row.encoding).map { Array($0) })

        var output = ""
        do {
            let document = try FeedParser.parse(bytes: bytes, documentURL: Self.url, limits: row.limits)
            output = "\(document)"
            #expect(row.error == nil, "parsed, but expected \(String(describing: row.error))")
        } catch {
            output = "\(error)"
            #expect(error == row.error)
        }
        #expect(listener.connections() == 0, "the document made the parser connect")
        #expect(!output.contains(secret), "the secret file leaked into the result")
    }

    /// The zero-connection assertions above can fail: a real connection is counted.
    @Test func listenerCountsARealConnection() throws {
        let listener = try LoopbackListener()
        let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(client) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(listener.port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(client, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        #expect(connected == 0)
        #expect(listener.connections() == 1)
    }
}
