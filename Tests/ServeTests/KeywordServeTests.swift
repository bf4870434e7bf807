import DocSync
import DocSyncServe
import Foundation
import TestSupport
import Testing

/// `serve` with keyword prefixes: `/api/search?q=kw:text`, `kw:` listing, an unknown keyword's message, keywords
/// in `/api/docsets`, the OpenSearch description, and the search page in headless Chromium (the selected hit shown
/// at once, arrow keys, Enter, the query kept in the address).
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct KeywordServeTests {
    /// A docset with Info.plist `DocSetPlatformFamily` = `family` and `rows` entries `sym0…`.
    static func fixture(family: String, rows: Int) throws -> DocsetFixture {
        var fixture = try DocsetFixture.make(version: "1", indexRows: rows)
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>CFBundleName</key><string>Fixture</string>
            <key>DocSetPlatformFamily</key><string>\(family)</string></dict></plist>
            """
        fixture.files["Contents/Info.plist"] = (Array(plist.utf8), 0o644)
        return fixture
    }

    @Test func apiAndPageScopeByKeyword() async throws {
        let h = try ServeHarness()
        defer { h.remove() }
        try await h.install("A", version: "1", fixture: try Self.fixture(family: "Alpha", rows: 12))
        try await h.install("B", version: "1", fixture: try Self.fixture(family: "bee", rows: 3))
        try await h.start()

        let scoped = try APITests.object(try await h.http.get("/api/search?q=BEE%3Asym&limit=50").text)
        let hits = try #require(scoped["hits"] as? [[String: Any]])
        #expect(hits.count == 3 && hits.allSatisfy { $0["docset"] as? String == "B" }, "\(hits)")
        #expect(scoped["query"] as? String == "BEE:sym" && scoped["message"] == nil)

        // A keyword alone lists A-Z, past the default limit of 20 (12 + 3 entries).
        let listing = try APITests.object(try await h.http.get("/api/search?q=alpha,bee:").text)
        let names = (listing["hits"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        #expect(names.count == 15 && names == names.sorted(), "\(names)")

        let unknown = try await h.http.get("/api/search?q=rust%3Avec")
        #expect(unknown.status == 200)
        let answer = try APITests.object(unknown.text)
        #expect((answer["hits"] as? [Any])?.isEmpty == true)
        #expect(
            answer["message"] as? String == #"search query: no docset has the keyword "rust" (keywords: alpha, bee)"#)

        let list = try #require(
            try JSONSerialization.jsonObject(with: Data(try await h.http.get("/api/docsets").body)) as? [[String: Any]])
        #expect(list.map { $0["keywords"] as? [String] } == [["alpha"], ["bee"]])

        // The page without script: the scoped results rendered, the message for an unknown keyword.
        let page = try await h.http.get("/?q=bee%3Asym")
        #expect(page.text.components(separatedBy: "<li><a href=").count == 4, "\(page.text)")
        #expect(page.text.contains(#"<link rel="search" type="application/opensearchdescription+xml""#))
        let message = try await h.http.get("/?q=zz%3Asym")
        #expect(message.text.contains("no docset has the keyword &quot;zz&quot;"), "\(message.text)")

        let description = try await h.http.get("/_/opensearch.xml")
        #expect(description.header("Content-Type") == "application/opensearchdescription+xml; charset=utf-8")
        #expect(description.text.contains(#"template="http://127.0.0.1:\#(h.port)/?q={searchTerms}""#))
        try await h.stop()
    }

    /// A `Host` that is not a plain host name is never echoed into the description.
    @Test func openSearchTemplateNeverEchoesAnOddHost() {
        #expect(OpenSearchDescription.xml(authority: "docs.example:8080").contains("http://docs.example:8080/?q="))
        #expect(OpenSearchDescription.xml(authority: "[::1]:80").contains("http://[::1]:80/?q="))
        for host in ["a\"><x", "evil/path", "", "a b", String(repeating: "a", count: 300)] {
            #expect(OpenSearchDescription.xml(authority: host).contains(#"template="/?q={searchTerms}""#), "\(host)")
        }
        #expect(OpenSearchDescription.xml(authority: nil).contains(#"template="/?q={searchTerms}""#))
    }

    @Test func thePageShowsTheSelectedHitAtOnce() async throws {
        guard let chromium = BrowserTests.chromium else {
            print("KeywordServeTests skipped: no chromium (apt-get install chromium; scripts/bootstrap lists it)")
            return
        }
        let h = try ServeHarness()
        defer { h.remove() }
        try await h.install("A", version: "1", fixture: try Self.fixture(family: "alpha", rows: 12))
        try await h.install("B", version: "1", fixture: try Self.fixture(family: "bee", rows: 3))
        try await h.start()
        let result = try await BrowserTests.drive(BrowserTests.preamble + Self.body, chromium: chromium, harness: h)
        #expect(result.status == 0, "driver failed: \(result.standardError.suffix(2000))")
        let report = try APITests.object(result.standardOutput)
        #expect(report["docsets"] as? [String] == ["B", "B", "B"], "kw: scopes: \(report)")
        #expect(report["first"] as? String == "/d/B/p0.html", "the first hit's page at once, no key pressed")
        #expect(report["second"] as? String == "/d/B/p1.html", "ArrowDown shows the next hit's page")
        #expect(report["focused"] as? Bool == true, "Enter opens it: the document takes the focus")
        #expect(report["url"] as? String == "/?q=bee%3Asym", "the address keeps the query")
        let listing = ["sym0", "sym1", "sym10", "sym11"] + (2...9).map { "sym\($0)" }
        #expect(report["listing"] as? [String] == listing, "a keyword alone lists A-Z")
        let unknown = report["unknown"] as? String ?? ""
        #expect(unknown.contains(#"no docset has the keyword "zz" (keywords: alpha, bee)"#), "\(report)")
        #expect(report["opensearch"] as? String == "application/opensearchdescription+xml /_/opensearch.xml")
        try await h.stop()
    }

    static let body = #"""
        def key(name, code):
            for kind in ("rawKeyDown", "keyUp"):
                send("Input.dispatchKeyEvent", {"type": kind, "key": name, "code": name,
                    "windowsVirtualKeyCode": code}, session)
        def retype(text):
            evaluate("(() => { const q = document.getElementById('q'); q.focus(); q.value = ''; })()", session)
            send("Input.insertText", {"text": text}, session)
        def shown(k):
            return until("hit %d's page" % k, "(() => { const f = document.getElementById('doc');"
                " const all = document.querySelectorAll('#results a');"
                " return all.length > %d && all[%d].classList.contains('selected')"
                " && f.getAttribute('src') === all[%d].getAttribute('href') ? f.getAttribute('src') : null })()"
                % (k, k, k), session)
        try:
            target = send("Target.createTarget", {"url": url})["targetId"]
            session = send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
            until("the page", "document.readyState === 'complete' && !!document.getElementById('q')", session)
            report = {}
            report["opensearch"] = evaluate("(() => { const l = document.querySelector('link[rel=search]');"
                " return l ? l.type + ' ' + l.getAttribute('href') : null })()", session)
            retype("bee:sym")
            until("results", "document.querySelectorAll('#results a').length === 3", session)
            report["docsets"] = evaluate(
                "Array.from(document.querySelectorAll('#results a .docset')).map(e => e.textContent)", session)
            report["first"] = shown(0)
            key("ArrowDown", 40)
            report["second"] = shown(1)
            key("Enter", 13)
            report["focused"] = until("the document focused",
                "document.activeElement && document.activeElement.id === 'doc'", session)
            report["url"] = evaluate("location.pathname + location.search", session)
            retype("alpha:")
            until("the listing", "document.querySelectorAll('#results a').length === 12", session)
            report["listing"] = evaluate(
                "Array.from(document.querySelectorAll('#results a .name')).map(e => e.textContent)", session)
            retype("zz:sym")
            report["unknown"] = until("the message", "(() => { const f = document.querySelector('#results .failure');"
                " return f ? f.textContent : null })()", session)
            print(json.dumps(report))
        finally:
            try: send("Browser.close")
            except BaseException: pass
            try: proc.wait(timeout=10)
            except Exception: proc.kill(); proc.wait()
        """#
}
