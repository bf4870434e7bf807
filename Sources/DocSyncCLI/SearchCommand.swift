import ArgumentParser
import DocSync
import DocSyncSupport
import Foundation

/// `docsync search`: one query over every installed docset's entries, like `dasht-query-line` but over both index
/// formats, read-only.
struct SearchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Search the entries of every installed docset (read-only).",
        discussion: """
            Ranks exact matches first, then prefix, substring and fuzzy (subsequence) matches, shorter names first; \
            case is ignored. Prints name, type, docset and the URL to open for each hit. Exit status: 0 with hits, \
            1 without, 3 when some docset's index could not be read (the others still answer).
            """ + "\n\n" + manual)

    @OptionGroup var configOptions: ConfigOptions
    @OptionGroup var rootOptions: RootOptions

    @Argument(help: "The text to look for in entry names; `kw:text` searches only docsets with keyword kw.")
    var query: String

    @Option(
        name: .customLong("docset"),
        help: ArgumentHelp(
            "Only this docset (NAME@VERSION: one version), or @GROUP for a [[group]] of the configuration "
                + "(repeatable)."))
    var docsets: [String] = []

    @Option(help: "Only entries of this type (Function, Method, Class…; aliases like func are accepted).")
    var type: [String] = []

    @Option(help: "At most this many hits (1 to 10000; default 20, or 1000 for a keyword alone such as html:).")
    var limit: Int?

    @Flag(help: "One JSON object per hit on standard output.")
    var json = false

    @Flag(help: "Search the pages' visible text (the text index) instead of entry names.")
    var text = false

    func validate() throws {
        if let limit, !(1...SearchQuery.maximumLimit).contains(limit) {
            throw ValidationError("--limit must be 1 to \(SearchQuery.maximumLimit), not \(limit)")
        }
        if text, !type.isEmpty { throw ValidationError("--type filters entries; it does not apply to --text") }
    }

    func run() async throws {
        let config = try configOptions.load(rootOptions)
        let docsets = try config.expandDocsetSelectors(docsets, command: "search")
        if docsets.contains(where: { DocsetAddress.split($0) != nil }) {
            let installed = try InstalledLookup.all(config, command: "search")
            for name in docsets where DocsetAddress.split(name) != nil {
                _ = try InstalledLookup.require(name, in: installed, root: config.root, command: "search")
            }
        }
        let index: DocsetIndex
        do {
            index = try SyncEngine(configuration: config).index()
        } catch {
            printError("docsync: cannot read \(config.root): \(error)")
            throw ExitStatus.ioError
        }
        if text { return try await searchText(index, docsets: docsets) }
        var search = SearchQuery(parsing: query, docsets: docsets, types: type)
        search.limit = limit ?? (search.isListing ? SearchQuery.maximumListing : 20)
        let results: SearchResults
        do {
            results = try await index.search(search)
        } catch where error.kind == .unknownKeyword {
            printError("docsync: \(Self.escaped(error.description))")
            throw ExitCode(1)  // no hits, as for any query that finds nothing
        } catch {
            throw ValidationError(error.message)  // an invalid query: usage (64), naming the option's limit
        }
        for failure in results.failures { printError("docsync: search: \(Self.escaped(failure.description))") }
        printHits(results.hits, json: Self.json) { hit in
            "name = \(Self.escaped(hit.name))\ntype = \(Self.escaped(hit.type))\n"
                + "from = \(Self.escaped(hit.docset))\nurl = \(hit.url.absoluteString)"
        }
        if !results.failures.isEmpty { throw ExitStatus.partialFailure }
        if results.hits.isEmpty { throw ExitCode(1) }
    }

    static func json(_ hit: SearchHit) -> String {
        var object: [String: Any] = [
            "name": hit.name, "type": hit.type, "docset": hit.docset, "url": hit.url.absoluteString,
            "match": hit.match.label, "page": hit.page, "raw_type": hit.rawType,
        ]
        if let version = hit.version { object["version"] = version }
        if let fragment = hit.fragment { object["fragment"] = fragment }
        return jsonLine(object)
    }

    /// Each hit on a line of its own: `json(hit)` with `--json`, else `text(hit)`.
    func printHits<Hit>(_ hits: [Hit], json: (Hit) -> String, text: (Hit) -> String) {
        for hit in hits { printLine(self.json ? json(hit) : text(hit)) }
    }

    /// `object` as one line of JSON, keys sorted, slashes as they are.
    static func jsonLine(_ object: [String: Any]) -> String {
        let data =
            (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
            ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    /// Untrusted text for a terminal: control characters escaped (`\n`, `\t`, `\e`, `\u{…}`).
    static func escaped(_ text: String) -> String { text.escapingControlCharacters }
}
