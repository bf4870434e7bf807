import DocSync
import DocSyncServe
import Foundation
import TestSupport
import Testing

/// `/api/search`, `/api/text`, `/api/docsets`, `/api/entries/<Name>` and the page at `/`, over real HTTP.
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct APITests {
    static func object(_ text: some StringProtocol) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func searchAnswersLikeTheCLIPlusPageURL() async throws {
        let h = try ServeHarness()
        defer { h.remove() }
        try await h.install("A", version: "1", fixture: try DocsetFixture.make(version: "1", indexRows: 30))
        try await h.start()

        let reply = try await h.http.get("/api/search?q=sym1&limit=5")
        #expect(reply.status == 200 && reply.header("Content-Type") == "application/json; charset=utf-8")
        let answer = try Self.object(reply.text)
        let hits = try #require(answer["hits"] as? [[String: Any]])
        #expect(hits.count == 5)
        #expect(hits.first?["name"] as? String == "sym1")
        #expect(hits.first?["page_url"] as? String == "/d/A/p1.html")
        // The entry's page and type as the index spells them (`entries` names them the same); no anchor, no key.
        #expect(hits.first?["page"] as? String == "p1.html" && hits.first?["raw_type"] as? String == "Function")
        #expect(hits.allSatisfy { $0["fragment"] == nil })

        // The same ranking and schema as `docsync search --json`, page_url aside.
        let cli = try Tool.run(Tool.docsyncBinary, ["search", "--config", h.configPath, "--json", "--limit", "5", "sym1"])
        #expect(cli.status == 0, "\(cli.standardError)")
        let expected = try cli.standardOutput.split(separator: "\n").map(Self.object)
        #expect(expected.count == hits.count)
        for (hit, line) in zip(hits, expected) {
            var withoutPage = hit
            withoutPage["page_url"] = nil
            #expect(NSDictionary(dictionary: withoutPage).isEqual(to: line), "\(hit) vs \(line)")
        }

        // Filters and groups; bad input is a 400 naming the problem.
        let scoped = try Self.object(try await h.http.get("/api/search?q=sym&docset=%40web&type=Function&limit=3").text)
        #expect((scoped["hits"] as? [Any])?.count == 3)
        let none = try Self.object(try await h.http.get("/api/search?q=sym&docset=Nope").text)
        #expect((none["hits"] as? [Any])?.isEmpty == true)
        let bad = try await h.http.get("/api/search?q=x&limit=0")
        #expect(bad.status == 400 && bad.text.contains("limit"))
        let long = try await h.http.get("/api/search?q=" + String(repeating: "x", count: 2000))
        #expect(long.status == 400)
        try await h.stop()
    }

    @Test func textSearchOverHTTPAndOnTheSearchPage() async throws {
        let h = try ServeHarness()
        defer { h.remove() }
        try await h.install("A", version: "1", fixture: try DocsetFixture.make(version: "1", documents: 6))
        try await h.start()
        let reply = try await h.http.get("/api/text?q=paragraph&limit=3")
        #expect(reply.status == 200, "\(reply.text)")
        let hits = try #require(try Self.object(reply.text)["hits"] as? [[String: Any]])
        #expect(hits.count == 3)
        #expect((hits.first?["page_url"] as? String)?.hasPrefix("/d/A/") == true)
        #expect((hits.first?["snippet"] as? String)?.contains("**paragraph**") == true)
        #expect(hits.first?["page"] as? String != nil && hits.first?["title"] != nil)
        let bad = try await h.http.get("/api/text?q=%22open")
        #expect(bad.status == 400 && bad.text.contains("position 1"))
        let scoped = try await h.http.get("/api/text?q=fixture:paragraph&limit=3")  // Info.plist's keyword
        #expect((try Self.object(scoped.text)["hits"] as? [[String: Any]])?.count == 3, "\(scoped.text)")
        let unknown = try await h.http.get("/api/text?q=py:paragraph")
        let answer = try Self.object(unknown.text)
        #expect(unknown.status == 200 && (answer["hits"] as? [Any])?.isEmpty == true, "\(unknown.text)")
        #expect((answer["message"] as? String)?.contains("fixture") == true, "\(unknown.text)")
        let page = try await h.http.get("/?q=paragraph&kind=text")
        #expect(page.status == 200 && page.text.contains("class=\"snippet\"") && page.text.contains("selected>Text"))
        try await h.stop()
    }

    @Test func docsetsAndEntries() async throws {
        let h = try ServeHarness()
        defer { h.remove() }
        try await h.install("A", version: "1", fixture: try DocsetFixture.make(version: "1", indexRows: 40))
        try await h.start()

        let list = try #require(try JSONSerialization.jsonObject(with: Data(try await h.http.get("/api/docsets").body)) as? [[String: Any]])
        #expect(list.count == 1)
        #expect(list.first?["name"] as? String == "A" && list.first?["version"] as? String == "1")
        #expect(list.first?["layout"] as? String == "extracted")

        let entries = try await h.http.get("/api/entries/A")
        #expect(entries.status == 200 && entries.header("Content-Type")?.hasPrefix("application/x-ndjson") == true)
        let lines = entries.text.split(separator: "\n")
        #expect(lines.count == 40)
        let first = try Self.object(try #require(lines.first))
        #expect((first["page_url"] as? String)?.hasPrefix("/d/A/p") == true)
        #expect(first["name"] != nil && first["type"] != nil && first["url"] != nil)
        #expect(try await h.http.get("/api/entries/Nope").status == 404)
        try await h.stop()
    }

    @Test func theSearchPageRendersResultsOnTheServerWithoutExternalAssets() async throws {
        let h = try ServeHarness()
        defer { h.remove() }
        try await h.install("A", version: "1", fixture: try DocsetFixture.make(version: "1", indexRows: 12))
        try await h.start()

        let page = try await h.http.get("/?q=sym1%3C")
        #expect(page.status == 200)
        let empty = try await h.http.get("/?q=sym1")
        #expect(empty.text.contains("<a href=\"/d/A/p1.html\" target=\"doc\""), "server-side results")
        #expect(empty.text.contains("value=\"sym1\""))
        #expect(page.text.contains("value=\"sym1&lt;\""), "the query is escaped")
        #expect(empty.text.contains("<option value=\"@web\">@web</option>"), "groups are scopes")
        let policy = try #require(empty.header("Content-Security-Policy"))
        #expect(policy.contains("default-src 'none'") && policy.contains("script-src 'self'"))
        let script = try await h.http.get("/_/app.js")
        let style = try await h.http.get("/_/app.css")
        #expect(script.status == 200 && style.status == 200)
        for text in [empty.text, script.text, style.text] {
            #expect(!text.contains("http://") && !text.contains("https://"), "no external asset")
        }
        #expect(try await h.http.get("/nothing").status == 404)
        try await h.stop()
    }

    @Test func listenIsLoopbackUnlessAskedFor() throws {
        let config = DocSyncConfiguration(root: "/nonexistent", staging: "/nonexistent", state: "/nonexistent")
        func attempt(_ listen: String, remote: Bool = false) -> String {
            var settings = DocSyncConfiguration.Serve()
            settings.listen = listen
            settings.allowRemote = remote
            settings.accessLog = nil
            do {
                _ = try DocServer(configuration: config, settings: settings, logger: .init(label: "t"))
                return "ok"
            } catch ServeError.remoteNotAllowed {
                return "remote"
            } catch ServeError.badAddress {
                return "bad"
            } catch {
                return "\(error)"
            }
        }
        let table: [(String, Bool, String)] = [
            ("127.0.0.1:8484", false, "ok"), ("127.1.2.3:1", false, "ok"), ("localhost:80", false, "ok"),
            ("[::1]:8484", false, "ok"), ("0.0.0.0:8484", false, "remote"), ("[::]:8484", false, "remote"),
            ("192.168.1.2:80", false, "remote"), ("example.org:80", false, "remote"), ("0.0.0.0:8484", true, "ok"),
            ("127.0.0.1", false, "bad"), ("127.0.0.1:99999", false, "bad"), ("::1:80", false, "bad"),
            (":80", false, "bad"), ("127.0.0.1:x", false, "bad"), ("a b:80", false, "bad"),
        ]
        for (listen, remote, expected) in table {
            #expect(attempt(listen, remote: remote) == expected, "\(listen) allow_remote=\(remote)")
        }
    }

    @Test func byteRangesFollowRFC9110() {
        let table: [(String?, Int, ByteRange)] = [
            (nil, 10, .whole), ("bytes=0-4", 10, .part(0..<5)), ("bytes=5-", 10, .part(5..<10)),
            ("bytes=-3", 10, .part(7..<10)), ("bytes=-30", 10, .part(0..<10)), ("bytes=8-100", 10, .part(8..<10)),
            ("bytes=10-", 10, .unsatisfiable), ("bytes=-0", 10, .unsatisfiable), ("bytes=5-2", 10, .whole),
            ("bytes=0-1,3-4", 10, .whole), ("items=0-1", 10, .whole), ("bytes=x-1", 10, .whole),
            ("bytes=0-", 0, .unsatisfiable), ("bytes=99999999999999999999-", 10, .whole),
        ]
        for (header, length, expected) in table {
            #expect(ByteRange.resolve(header, length: length) == expected, "\(header ?? "nil") of \(length)")
        }
    }
}
