import ArgumentParser
import DocSync
import DocSyncSupport

#if canImport(Glibc)
    import Glibc
#endif

/// `docsync mcp`: the Model Context Protocol server over standard input and output (`MCPServer`).
struct McpCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mcp",
        abstract: "Serve the installed docsets to coding agents: a read-only MCP server over stdio.",
        discussion: """
            Speaks the Model Context Protocol (JSON-RPC 2.0, one message per line) on standard input and output, \
            protocol versions 2025-11-25, 2025-06-18, 2025-03-26 and 2024-11-05 (the client's when it asks for one \
            of them, else the newest). Register it with an agent as the command `docsync mcp` (add --root DIR or \
            --config FILE when needed). Nothing is ever written to the docsets; the state folder only gains the \
            derived name index a first search builds, as `docsync search` does.

            Tools (each answers structuredContent and the same as JSON text; a bad argument is a tool error with \
            isError true, and the session goes on):
              list_docsets                      name, title, version, layout, text_index (ready/building/none)
              search {query, docset?, limit?}   entries by name: name, type, docset, page, fragment, url
              search_text {query, docset?, limit?}
                                                pages by what they say (the syntax of `docsync search --text`): \
            docset, page, title, snippet, url
              read_page {docset, page, format?} the page's visible text ("text", default) or its HTML ("html"), \
            at most 100000 characters (a longer page is cut there, and the answer says so); a page path that \
            leaves the docset is refused
            limit is 1 to 100 (default 20). Exit status: 0 when standard input ends.
            """)

    @OptionGroup var configOptions: ConfigOptions
    @OptionGroup var rootOptions: RootOptions

    func run() async throws {
        let config = try configOptions.load(rootOptions)
        let server = MCPServer(configuration: config, version: DocSyncCommand.configuration.version)
        var pending: [UInt8] = []
        var discarding = false
        while true {
            let chunk = await WorkerThread.run(name: "docsync-mcp-read") { Self.readStandardInput() }
            if chunk.isEmpty { break }
            pending += chunk
            while let newline = pending.firstIndex(of: 0x0A) {
                var line = Array(pending[..<newline])
                pending.removeSubrange(...newline)
                if discarding {
                    discarding = false
                    continue
                }
                if line.last == 0x0D { line.removeLast() }
                guard line.contains(where: { $0 != 0x20 && $0 != 0x09 }) else { continue }
                if let answer = await server.handle(line) { printLine(answer) }
            }
            if pending.count > MCPServer.maximumMessageBytes, !discarding {
                pending.removeAll()
                discarding = true
                printLine(MCPServer.tooLong)
            } else if discarding {
                pending.removeAll()
            }
        }
    }

    /// Up to 64 KiB from standard input; empty at its end (or on a read error).
    private static func readStandardInput() -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: 64 << 10) { buffer, count in
            while true {
                let n = read(STDIN_FILENO, buffer.baseAddress, buffer.count)
                if n < 0, errno == EINTR { continue }
                count = max(n, 0)
                return
            }
        }
    }
}
