import DocSync
import Foundation
import TestSupport
import Testing

/// `docsync mcp`: the JSON-RPC handling (notifications unanswered, errors by code, version negotiation) and a real
/// session with the official Python SDK (`pip install mcp`) as the client.
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct MCPServerTests {
    static func answer(_ server: MCPServer, _ message: String) async throws -> [String: Any]? {
        guard let line = await server.handle(Array(message.utf8)) else { return nil }
        return try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
    }

    static func errorCode(_ object: [String: Any]?) -> Int? {
        (object?["error"] as? [String: Any])?["code"] as? Int
    }

    @Test func jsonRPCRules() async throws {
        let dir = try TemporaryDirectory("mcp-rpc")
        defer { dir.remove() }
        let server = MCPServer(
            configuration: DocSyncConfiguration(
                root: dir.appending("root"), staging: dir.appending("staging"), state: dir.appending("state")),
            version: "test")
        let initialize = try await Self.answer(
            server, #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26"}}"#)
        #expect((initialize?["result"] as? [String: Any])?["protocolVersion"] as? String == "2025-03-26")
        let newer = try await Self.answer(
            server, #"{"jsonrpc":"2.0","id":"a","method":"initialize","params":{"protocolVersion":"2099-01-01"}}"#)
        #expect((newer?["result"] as? [String: Any])?["protocolVersion"] as? String == MCPServer.protocolVersions[0])
        #expect(newer?["id"] as? String == "a")
        #expect(try await Self.answer(server, #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#) == nil)
        #expect(try await Self.answer(server, #"{"jsonrpc":"2.0","method":"tools/list"}"#) == nil)
        #expect(Self.errorCode(try await Self.answer(server, "not json")) == -32700)
        #expect(Self.errorCode(try await Self.answer(server, #"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#)) == -32600)
        #expect(Self.errorCode(try await Self.answer(server, #"{"jsonrpc":"2.0","id":2,"method":"nope"}"#)) == -32601)
        let unknownTool = #"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"write_file"}}"#
        #expect(Self.errorCode(try await Self.answer(server, unknownTool)) == -32602)
        let badArgument =
            #"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"search","arguments":{"limit":5}}}"#
        let result = try await Self.answer(server, badArgument)?["result"] as? [String: Any]
        #expect(result?["isError"] as? Bool == true)
        let ping = try await Self.answer(server, #"{"jsonrpc":"2.0","id":5,"method":"ping"}"#)
        #expect(ping?["result"] as? [String: Any] != nil)
    }

    static let client = #"""
        import asyncio, json, sys
        from mcp import ClientSession, StdioServerParameters
        from mcp.client.stdio import stdio_client

        def result(r):
            return {"error": bool(getattr(r, "is_error", getattr(r, "isError", False))),
                    "structured": getattr(r, "structured_content", getattr(r, "structuredContent", None)),
                    "text": "".join(getattr(c, "text", "") for c in r.content)}

        async def main():
            params = StdioServerParameters(command=sys.argv[1], args=["mcp"] + sys.argv[2:])
            out = {}
            async with stdio_client(params) as (read, write):
                async with ClientSession(read, write) as session:
                    init = await session.initialize()
                    out["version"] = getattr(init, "protocol_version", getattr(init, "protocolVersion", None))
                    tools = await session.list_tools()
                    out["tools"] = sorted(t.name for t in tools.tools)
                    out["list"] = result(await session.call_tool("list_docsets", {}))
                    out["text"] = result(await session.call_tool("search_text", {"query": "\"brown bear\""}))
                    out["names"] = result(await session.call_tool("search", {"query": "name", "limit": 3}))
                    out["keyword"] = result(await session.call_tool("search", {"query": "rust,go:name"}))
                    out["page"] = result(await session.call_tool(
                        "read_page", {"docset": "Fixture-extracted", "page": "index.html"}))
                    out["escape"] = result(await session.call_tool(
                        "read_page", {"docset": "Fixture-extracted", "page": "../../meta.json"}))
                    out["bad"] = result(await session.call_tool("search_text", {"query": "\"open", "limit": 1}))
                    out["after"] = result(await session.call_tool(
                        "search_text", {"query": "eleve", "docset": "Fixture-extracted"}))
                    out["tarix"] = result(await session.call_tool(
                        "read_page", {"docset": "Fixture-tarix", "page": "guide/bears.html", "format": "html"}))
                    out["tarix_text"] = result(await session.call_tool(
                        "search_text", {"query": "bear*", "docset": "Fixture-tarix", "limit": 2}))
                    for name, call in [
                            ("bad_limit", ("search", {"query": "name", "limit": -5})),
                            ("bad_format", ("read_page", {"docset": "Fixture-tarix", "page": "index.html",
                                                          "format": "pdf"})),
                            ("no_docset", ("read_page", {"page": "index.html"})),
                            ("unknown_docset", ("search_text", {"query": "brown", "docset": "Nope"})),
                            ("no_page", ("read_page", {"docset": "Fixture-tarix", "page": "missing.html"}))]:
                        out[name] = result(await session.call_tool(*call))
            print(json.dumps(out))

        asyncio.run(main())
        """#

    @Test func aSessionWithThePythonSDK() async throws {
        let probe = try Tool.run("/usr/bin/env", ["python3", "-c", "import mcp"])
        guard probe.status == 0 else {
            let inCI = ProcessInfo.processInfo.environment["CI"] != nil
            #expect(!inCI, "the Python MCP SDK is missing (scripts/bootstrap installs it: pip install mcp)")
            print("SKIPPED MCPServerTests.aSessionWithThePythonSDK: python3 cannot import mcp (pip install mcp)")
            return
        }
        let installed = try await FullTextSearchTests.install([.extracted, .tarix])
        defer { installed.dir.remove() }
        let trees = [installed.configuration.root, installed.configuration.state, installed.configuration.staging]
        let before = Self.snapshot(trees)
        let script = installed.dir.appending("client.py")
        try Self.client.write(toFile: script, atomically: true, encoding: .utf8)
        var env = ProcessInfo.processInfo.environment
        env["DOCSYNC_CONFIG"] = nil
        env["XDG_CONFIG_HOME"] = installed.dir.appending("no-config")
        env["XDG_CONFIG_DIRS"] = installed.dir.appending("no-config")
        let run = try Tool.run(
            "/usr/bin/env",
            [
                "python3", script, Tool.docsyncBinary, "--root", installed.configuration.root, "--state",
                installed.configuration.state,
            ], environment: env)
        #expect(run.status == 0, "\(run.standardError)")
        let out = try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
        #expect(out["version"] as? String == "2025-11-25")
        #expect(out["tools"] as? [String] == ["list_docsets", "read_page", "search", "search_text"])
        func call(_ name: String) -> [String: Any] { out[name] as? [String: Any] ?? [:] }
        let docsets = (call("list")["structured"] as? [String: Any])?["docsets"] as? [[String: Any]]
        #expect(docsets?.first?["name"] as? String == "Fixture-extracted")
        #expect(docsets?.first?["text_index"] as? String == "ready")
        let hits = (call("text")["structured"] as? [String: Any])?["hits"] as? [[String: Any]]
        #expect(hits?.first?["page"] as? String == "guide/bears.html")
        #expect((call("text")["text"] as? String)?.contains("guide/bears.html") == true)
        #expect(call("names")["error"] as? Bool == false)
        // Zeal's keyword prefixes, as on the command line: a keyword no docset has is an error naming it.
        #expect(call("keyword")["error"] as? Bool == true, "\(call("keyword"))")
        #expect((call("keyword")["text"] as? String)?.contains(#"no docset has the keywords "rust", "go""#) == true)
        #expect((call("page")["text"] as? String)?.hasPrefix("# Alpha Guide\n\nWelcome") == true)
        #expect(call("escape")["error"] as? Bool == true)
        #expect(call("bad")["error"] as? Bool == true)
        #expect((call("bad")["text"] as? String)?.contains("position 1") == true)
        let afterError = (call("after")["structured"] as? [String: Any])?["hits"] as? [[String: Any]]
        #expect(afterError?.count == 1, "the session goes on after a tool error")
        #expect((call("tarix")["text"] as? String)?.contains("<title>Bears</title>") == true, "\(call("tarix"))")
        let bears = (call("tarix_text")["structured"] as? [String: Any])?["hits"] as? [[String: Any]]
        #expect(bears?.map { $0["page"] as? String } == ["guide/bears.html"], "\(call("tarix_text"))")
        for bad in ["bad_limit", "bad_format", "no_docset", "no_page"] {
            #expect(call(bad)["error"] as? Bool == true, "\(bad): \(call(bad))")
        }
        // A docset that is not installed is an error naming it, as for a name search (not an empty answer).
        #expect(call("unknown_docset")["error"] as? Bool == true, "\(call("unknown_docset"))")
        #expect((call("unknown_docset")["text"] as? String)?.contains("Nope") == true, "\(call("unknown_docset"))")
        // The server never writes: every file and folder of root, state and staging as before the session (a
        // session that called every tool, with good and bad arguments, on both layouts).
        let after = Self.snapshot(trees)
        #expect(after == before, "changed: \(after.filter { before[$0.key] != $0.value }.keys.sorted())")
    }

    /// Every file and folder under `trees` (the folders themselves included), with what a write changes: inode,
    /// size, modification and status-change times, mode.
    static func snapshot(_ trees: [String]) -> [String: String] {
        var files: [String: String] = [:]
        for tree in trees {
            let paths = [tree] + (FileManager.default.enumerator(atPath: tree)?.compactMap { $0 as? String } ?? [])
                .map { "\(tree)/\($0)" }
            for path in paths {
                var st = stat()
                guard lstat(path, &st) == 0 else { continue }
                files[path] =
                    "\(st.st_ino) \(st.st_size) \(st.st_mtim.tv_sec).\(st.st_mtim.tv_nsec) "
                    + "\(st.st_ctim.tv_sec).\(st.st_ctim.tv_nsec) \(st.st_mode)"
            }
        }
        return files
    }
}
