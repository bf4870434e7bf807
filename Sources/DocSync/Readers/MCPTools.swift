internal import DocSyncSupport
import Foundation

/// The four read-only tools of `docsync mcp` (`MCPServer`): `list_docsets`, `search` (entries by name),
/// `search_text` (pages by what they say) and `read_page` (a page as text or HTML, at most
/// ``maximumPageCharacters`` characters, cut with a note saying so). Each answers its result as
/// `structuredContent` and, serialized, as text content; a bad argument is a result with `isError: true`.
struct MCPTools: Sendable {
    /// What one call answers.
    struct Outcome: Sendable {
        var structured: JSONValue?
        var text: String
        var isError = false

        static func failure(_ message: String) -> Outcome { Outcome(structured: nil, text: message, isError: true) }

        var json: JSONValue {
            var result: [String: JSONValue] = [
                "content": .array([.object(["type": .string("text"), "text": .string(text)])]),
                "isError": .bool(isError),
            ]
            if let structured { result["structuredContent"] = structured }
            return .object(result)
        }
    }

    /// The most characters `read_page` returns (a longer page is cut there, and the answer says so).
    static let maximumPageCharacters = 100_000
    /// The most hits a search tool returns.
    static let maximumHits = 100

    let configuration: DocSyncConfiguration

    static let names: Set<String> = ["list_docsets", "search", "search_text", "read_page"]

    static let definitions: [JSONValue] = {
        func schema(_ properties: [String: (String, String)], required: [String]) -> JSONValue {
            var members: [String: JSONValue] = [:]
            for (name, (type, description)) in properties {
                members[name] = .object(["type": .string(type), "description": .string(description)])
            }
            return .object([
                "type": .string("object"), "properties": .object(members),
                "required": .array(required.map { .string($0) }), "additionalProperties": .bool(false),
            ])
        }
        func tool(_ name: String, _ description: String, _ input: JSONValue) -> JSONValue {
            .object([
                "name": .string(name), "description": .string(description), "inputSchema": input,
                "annotations": .object(["readOnlyHint": .bool(true), "openWorldHint": .bool(false)]),
            ])
        }
        let docset = ("string", "Only this docset (its name), or @GROUP for a configured group.")
        let limit = ("integer", "At most this many hits (1 to \(maximumHits), default 20).")
        return [
            tool(
                "list_docsets", "The installed documentation sets: name, title, version, and whether their text "
                    + "index is ready.", schema([:], required: [])),
            tool(
                "search", "Find API entries (classes, functions, methods, …) by name in the installed docsets, "
                    + "best first. Each hit names the page to pass to read_page.",
                schema(
                    [
                        "query": (
                            "string",
                            "The name or part of it (case is ignored); a keyword prefix as in Zeal scopes it "
                                + "(py:open, py,django:view), a keyword alone (html:) lists entries A-Z."
                        ), "docset": docset, "limit": limit,
                    ],
                    required: ["query"])),
            tool(
                "search_text", "Find documentation pages by what they say. Words are AND-ed, \"quoted phrases\" "
                    + "match in order, word* is a prefix, -word excludes. Each hit has a snippet and the page to pass "
                    + "to read_page.",
                schema(
                    ["query": ("string", "The words to find."), "docset": docset, "limit": limit],
                    required: ["query"])),
            tool(
                "read_page", "Read one page of a docset: its visible text (default) or its HTML, at most "
                    + "\(maximumPageCharacters) characters.",
                schema(
                    [
                        "docset": ("string", "The docset's name."),
                        "page": ("string", "The page, relative to the docset's documents folder, as hits give it."),
                        "format": ("string", "\"text\" (default) or \"html\"."),
                    ], required: ["docset", "page"])),
        ]
    }()

    func call(_ name: String, arguments: [String: JSONValue]) async -> Outcome {
        let known: Set<String> =
            switch name {
            case "search", "search_text": ["query", "docset", "limit"]
            case "read_page": ["docset", "page", "format"]
            default: []
            }
        if let unknown = arguments.keys.sorted().first(where: { !known.contains($0) }) {
            return .failure("\(name) takes no argument \"\(unknown.escapingControlCharacters)\"")
        }
        let engine = SyncEngine(configuration: configuration)
        switch name {
        case "list_docsets": return listDocsets(engine)
        case "search", "search_text":
            guard let query = arguments["query"]?.string, !query.isEmpty else {
                return .failure("\(name) needs a query (a non-empty string)")
            }
            var limit = 20
            if let given = arguments["limit"] {
                guard case .number(let value) = given, value.rounded() == value, (1...Double(Self.maximumHits)).contains(value)
                else { return .failure("limit must be an integer from 1 to \(Self.maximumHits)") }
                limit = Int(value)
            }
            var docsets: [String] = []
            if let docset = arguments["docset"] {
                guard let text = docset.string else { return .failure("docset must be a string") }
                docsets = [text]
            }
            return name == "search"
                ? await search(engine, query: query, docsets: docsets, limit: limit)
                : await searchText(engine, query: query, docsets: docsets, limit: limit)
        default:
            guard let docset = arguments["docset"]?.string, let page = arguments["page"]?.string else {
                return .failure("read_page needs docset and page (strings)")
            }
            let format = arguments["format"]?.string ?? "text"
            guard format == "text" || format == "html" else { return .failure("format must be \"text\" or \"html\"") }
            return await readPage(engine, docset: docset, page: page, html: format == "html")
        }
    }

    private func listDocsets(_ engine: SyncEngine) -> Outcome {
        guard let installed = try? engine.installedDocsets() else {
            return .failure("cannot read the docset root \(configuration.root.escapingControlCharacters)")
        }
        let list: [JSONValue] = installed.map { docset in
            let state = FullTextStore.state(of: SyncEngine.indexed(docset), stateDirectory: configuration.state)
            let text: String =
                switch state {
                case .ready: "ready"
                case .building: "building"
                case .missing: "none"
                }
            var object: [String: JSONValue] = [
                "name": .string(docset.name), "title": .string(docset.title), "layout": .string(docset.layout.rawValue),
                "text_index": .string(text),
            ]
            if let version = docset.version { object["version"] = .string(version) }
            return .object(object)
        }
        let structured = JSONValue.object(["docsets": .array(list)])
        return Outcome(structured: structured, text: MCPServer.encode(structured))
    }

    private func search(_ engine: SyncEngine, query: String, docsets: [String], limit: Int) async -> Outcome {
        guard let index = try? engine.index() else { return .failure("cannot read the docset root") }
        let results: SearchResults
        do { results = try await index.search(SearchQuery(parsing: query, docsets: docsets, limit: limit)) } catch {
            return .failure(error.description)
        }
        let paths = Dictionary(index.docsets.map { ($0.name, $0.path) }, uniquingKeysWith: { a, _ in a })
        let hits: [JSONValue] = results.hits.map { hit in
            var object: [String: JSONValue] = [
                "name": .string(hit.name), "type": .string(hit.type), "docset": .string(hit.docset),
                "url": .string(hit.url.absoluteString),
            ]
            if let page = Self.page(of: hit.url, docsetPath: paths[hit.docset]) { object["page"] = .string(page) }
            if let fragment = hit.url.fragment { object["fragment"] = .string(fragment) }
            return .object(object)
        }
        let structured = JSONValue.object([
            "hits": .array(hits), "failures": .array(results.failures.map { .string($0.description) }),
        ])
        return Outcome(structured: structured, text: MCPServer.encode(structured))
    }

    private func searchText(_ engine: SyncEngine, query: String, docsets: [String], limit: Int) async -> Outcome {
        guard let index = try? engine.index() else { return .failure("cannot read the docset root") }
        let results: TextSearchResults
        do { results = try await index.fullTextSearch(TextSearchQuery(query, docsets: docsets, limit: limit)) } catch {
            return .failure(error.description)
        }
        let hits: [JSONValue] = results.hits.map { hit in
            .object([
                "docset": .string(hit.docset), "page": .string(hit.page), "title": .string(hit.title),
                "snippet": .string(hit.snippet), "url": .string(hit.url.absoluteString),
            ])
        }
        let structured = JSONValue.object([
            "hits": .array(hits), "building": .array(results.building.map { .string($0) }),
            "missing": .array(results.missing.map { .string($0) }),
            "failures": .array(results.failures.map { .string($0.description) }),
        ])
        return Outcome(structured: structured, text: MCPServer.encode(structured))
    }

    private func readPage(_ engine: SyncEngine, docset name: String, page: String, html: Bool) async -> Outcome {
        guard let installed = try? engine.installedDocsets() else { return .failure("cannot read the docset root") }
        guard let docset = installed.first(where: { $0.name == name })
            ?? installed.first(where: { $0.name.lowercased() == name.lowercased() })
        else {
            return .failure("no docset \(name.escapingControlCharacters) (list_docsets names them)")
        }
        var text: String
        var title = ""
        do {
            if html {
                text = String(decoding: try await docset.contents(of: page), as: UTF8.self)
            } else {
                let read = try await docset.text(of: page)
                title = read.title
                text = read.text
            }
        } catch {
            return .failure(error.description)
        }
        let total = text.count
        let truncated = total > Self.maximumPageCharacters
        if truncated {
            text = String(text.prefix(Self.maximumPageCharacters))
                + "\n[… cut at \(Self.maximumPageCharacters) of \(total) characters]"
        }
        let structured = JSONValue.object([
            "docset": .string(docset.name), "page": .string(page), "title": .string(title),
            "format": .string(html ? "html" : "text"), "text": .string(text), "truncated": .bool(truncated),
            "characters": .number(Double(total)),
        ])
        return Outcome(structured: structured, text: title.isEmpty ? text : "# \(title)\n\n\(text)")
    }

    /// The page of an entry's `file://` URL relative to the documents folder of the docset at `docsetPath`.
    static func page(of url: URL, docsetPath: String?) -> String? {
        guard url.isFileURL, let docsetPath else { return nil }
        let prefix = docsetPath + "/Contents/Resources/Documents/"
        let path = url.path
        if path.hasPrefix(prefix) { return String(path.dropFirst(prefix.count)) }
        let resources = docsetPath + "/Contents/Resources/"
        return path.hasPrefix(resources) ? String(path.dropFirst(resources.count)) : nil
    }
}
