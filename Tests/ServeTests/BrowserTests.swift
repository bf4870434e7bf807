import DocSync
import DocSyncServe
import DocSyncSupport
import Foundation
import TestSupport
import Testing

/// The page at `/` driven in headless Chromium (Debian's `chromium`) through its DevTools protocol over a pipe
/// (`--remote-debugging-pipe`: NUL-terminated JSON on fds 3 and 4, no websocket): type a query, see results as you
/// type, open one with the keyboard, and find the document in the sandboxed frame. Skipped, saying so, when
/// chromium is not installed.
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct BrowserTests {
    static let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    @Test func typingAQueryShowsResultsAndEnterOpensOne() async throws {
        guard let chromium = Self.chromium else {
            print("BrowserTests skipped: no chromium (apt-get install chromium; scripts/bootstrap lists it)")
            return
        }
        let h = try ServeHarness()
        defer { h.remove() }
        var fixture = try DocsetFixture.make(version: "1", indexRows: 12)
        fixture.files["Contents/Resources/Documents/p11.html"] = (
            Array("<html><body><h1 id=t>Page of sym11</h1><script>document.title='sym11 page'</script></body></html>".utf8),
            0o644
        )
        let v1 = try await h.install("A", version: "1", fixture: fixture)
        try await h.start()
        let result = try await Self.drive(Self.driver, chromium: chromium, harness: h)
        #expect(result.status == 0, "driver failed: \(result.standardError.suffix(2000))")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any],
            "\(result.standardOutput) \(result.standardError.suffix(2000))")
        let names = try #require(report["names"] as? [String])
        #expect(names.first == "sym11", "results as you type, exact match first: \(names)")
        #expect(report["url"] as? String == "/?q=sym11", "the address is the shareable search")
        let frame = try #require(report["frame"] as? String)
        #expect(frame.hasSuffix("/d/\(ServeHarness.versionName(v1))/p11.html"), "the document beside: \(frame)")
        #expect(report["frameTitle"] as? String == "sym11 page", "its script ran, sandboxed")
        #expect(report["parentReadable"] as? Bool == false, "the sandboxed page cannot reach the search page")
        #expect(report["origin"] as? String == "null", "it runs at an opaque origin")
        try await h.stop()
    }

    /// Runs the Python DevTools `driver` against the harness's search page with `chromium`, on a thread of its own
    /// (the server answering the browser runs on this process's cooperative pool).
    static func drive(_ driver: String, chromium: String, harness h: ServeHarness) async throws -> Tool.Result {
        let script = h.dir.appending("cdp.py")
        try driver.write(toFile: script, atomically: true, encoding: .utf8)
        let profile = h.dir.appending("profile")
        let url = "http://127.0.0.1:\(h.port)/"
        let run: Result<Tool.Result, RawHTTP.Failure> = await WorkerThread.run(name: "cdp-driver") {
            Result { () throws(RawHTTP.Failure) in
                do {
                    return try Tool.run("/usr/bin/python3", [script, chromium, profile, url])
                } catch {
                    throw RawHTTP.Failure(description: "python3 cdp.py: \(error)")
                }
            }
        }
        return try run.get()
    }

    /// The DevTools driver: starts chromium with the pipe on fds 3/4 and prints one JSON report.
    static let driver = preamble + firstBody

    /// Starting chromium on the pipe and talking to it: `send`, `evaluate`, `until` (a body follows).
    static let preamble = #"""
        import fcntl, json, os, subprocess, sys, time
        chromium, profile, url = sys.argv[1], sys.argv[2], sys.argv[3]
        to_child_r, to_child_w = os.pipe()
        from_child_r, from_child_w = os.pipe()
        # Above 10 first, so that placing them at 3 and 4 in the child cannot overwrite one with the other.
        high_r = fcntl.fcntl(to_child_r, fcntl.F_DUPFD_CLOEXEC, 10)
        high_w = fcntl.fcntl(from_child_w, fcntl.F_DUPFD_CLOEXEC, 10)
        os.close(to_child_r); os.close(from_child_w)
        def fds():
            os.dup2(high_r, 3); os.dup2(high_w, 4)
        proc = subprocess.Popen([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
            "--disable-dev-shm-usage", "--remote-debugging-pipe", "--user-data-dir=" + profile, "about:blank"],
            pass_fds=(3, 4), preexec_fn=fds, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(high_r); os.close(high_w)
        out = os.fdopen(to_child_w, "wb", buffering=0); inp = os.fdopen(from_child_r, "rb", buffering=0)
        buf = b""; counter = [0]; deadline = time.time() + 120
        def send(method, params=None, session=None):
            counter[0] += 1
            msg = {"id": counter[0], "method": method, "params": params or {}}
            if session: msg["sessionId"] = session
            out.write(json.dumps(msg).encode() + b"\0")
            return wait(counter[0])
        def wait(ident):
            global buf
            while time.time() < deadline:
                while b"\0" in buf:
                    raw, buf = buf.split(b"\0", 1)
                    msg = json.loads(raw)
                    if msg.get("id") == ident:
                        if "error" in msg: raise SystemExit("CDP error: %r" % msg["error"])
                        return msg["result"]
                chunk = inp.read(65536)
                if not chunk: raise SystemExit("chromium closed the pipe")
                buf += chunk
            raise SystemExit("timed out waiting for reply %d" % ident)
        def evaluate(expr, session):
            r = send("Runtime.evaluate", {"expression": expr, "returnByValue": True, "awaitPromise": True}, session)
            return r["result"].get("value")
        def until(what, expr, session):
            while time.time() < deadline:
                v = evaluate(expr, session)
                if v: return v
                time.sleep(0.05)
            raise SystemExit("timed out waiting for " + what)

        """#

    static let firstBody = #"""
        try:
            target = send("Target.createTarget", {"url": url})["targetId"]
            session = send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
            until("the page", "document.readyState === 'complete' && !!document.getElementById('q')", session)
            evaluate("document.getElementById('q').focus()", session)
            send("Input.insertText", {"text": "sym11"}, session)
            until("results", "document.querySelectorAll('#results a').length > 0 && "
                "document.querySelector('#results a .name').textContent === 'sym11'", session)
            names = evaluate("Array.from(document.querySelectorAll('#results a .name')).map(e => e.textContent)", session)
            for key, code in (("ArrowDown", 40), ("ArrowUp", 38), ("Enter", 13)):
                for kind in ("rawKeyDown", "keyUp"):
                    send("Input.dispatchKeyEvent", {"type": kind, "key": key, "code": key,
                        "windowsVirtualKeyCode": code}, session)
            frame = until("the document", "(() => { const f = document.getElementById('doc');"
                " return f.src.indexOf('/d/') >= 0 && f.contentWindow ? f.src : null })()", session)
            # The frame's page runs at an opaque origin (its own process under site isolation): reach it as an
            # iframe target when it is one, else through the frame tree, and read it from inside.
            frame_session = None; frame_url = None
            while time.time() < deadline and frame_session is None:
                for info in send("Target.getTargets")["targetInfos"]:
                    if info["type"] == "iframe" and "/d/" in info["url"] and "@" in info["url"]:
                        frame_url = info["url"]
                        frame_session = send("Target.attachToTarget",
                            {"targetId": info["targetId"], "flatten": True})["sessionId"]
                        break
                else:
                    kids = send("Page.getFrameTree", {}, session)["frameTree"].get("childFrames") or []
                    if kids and "@" in kids[0]["frame"].get("url", ""):
                        frame_url = kids[0]["frame"]["url"]
                        world = send("Page.createIsolatedWorld", {"frameId": kids[0]["frame"]["id"]},
                            session)["executionContextId"]
                        frame_session = (session, world)
                        break
                    time.sleep(0.05)
            def in_frame(expr):
                if isinstance(frame_session, tuple):
                    r = send("Runtime.evaluate", {"expression": expr, "contextId": frame_session[1],
                        "returnByValue": True}, frame_session[0])
                else:
                    r = send("Runtime.evaluate", {"expression": expr, "returnByValue": True}, frame_session)
                return r["result"].get("value")
            title = None
            while time.time() < deadline:
                title = in_frame("document.title")
                if title == "sym11 page": break
                time.sleep(0.05)
            parent_readable = in_frame(
                "(() => { try { return !!window.parent.document.body } catch (e) { return false } })()")
            origin = in_frame("window.origin")
            page_url = evaluate("location.pathname + location.search", session)
            print(json.dumps({"names": names, "frame": frame_url, "frameTitle": title, "url": page_url,
                "parentReadable": parent_readable, "origin": origin}))
        finally:
            try: send("Browser.close")
            except BaseException: pass
            try: proc.wait(timeout=10)
            except Exception: proc.kill(); proc.wait()
        """#
}
