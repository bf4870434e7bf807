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

            --text searches what the pages say instead (each docset's text index, built at install and sync; \
            `[search] full_text`): words are AND-ed, "quoted phrases" match in order, word* is a prefix, -word \
            (or -"a phrase") excludes; case and diacritics are ignored; ranked by BM25 with the title weighted ten \
            times the body. Prints title, page (relative to the documents folder, as `docsync entries` gives it), \
            docset, a snippet with the matched words between ** and the URL; with --json one object per line with \
            docset, version, page, title, snippet, url. A docset whose text index is still being built, or has none \
            yet, is named on standard error. Exit status: 0 with hits, 1 without, 64 for a query over 1 KiB, \
            without a word, or with a syntax error (its position named), 3 when a text index could not be read.
            """)

    @OptionGroup var configOptions: ConfigOptions
    @OptionGroup var rootOptions: RootOptions

    @Argument(help: "The text to look for in entry names.")
    var query: String

    @Option(
        name: .customLong("docset"),
        help: "Only this docset, or @GROUP for a [[group]] of the configuration (repeatable).")
    var docsets: [String] = []

    @Option(help: "Only entries of this type (Function, Method, Class…; aliases like func are accepted).")
    var type: [String] = []

    @Option(help: "At most this many hits (1 to 10000).")
    var limit = 20

    @Flag(help: "One JSON object per hit on standard output.")
    var json = false

    @Flag(help: "Search the pages' visible text (the text index) instead of entry names.")
    var text = false

    @Option(help: .hidden)
    var benchQueries: String?

    func validate() throws {
        guard (1...SearchQuery.maximumLimit).contains(limit) else {
            throw ValidationError("--limit must be 1 to \(SearchQuery.maximumLimit), not \(limit)")
        }
        if text, !type.isEmpty { throw ValidationError("--type filters entries; it does not apply to --text") }
    }

    func run() async throws {
        let config = try configOptions.load(rootOptions)
        let docsets = try config.expandDocsetSelectors(docsets, command: "search")
        let index: DocsetIndex
        do {
            index = try SyncEngine(configuration: config).index()
        } catch {
            printError("docsync: cannot read \(config.root): \(error)")
            throw ExitStatus.ioError
        }
        if let benchQueries { return try bench(index, file: benchQueries) }
        if text { return try await searchText(index, docsets: docsets) }
        let results: SearchResults
        do {
            results = try await index.search(SearchQuery(query, docsets: docsets, types: type, limit: limit))
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
            "match": hit.match.label,
        ]
        if let version = hit.version { object["version"] = version }
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

    /// Benchmark mode: each line of `file` is `kind<TAB>query`; prints `kind<TAB>microseconds<TAB>hits<TAB>CPU
    /// microseconds` per query (the CPU time of the searching thread: on a loaded machine, what the query cost rather
    /// than how long it waited for a core).
    private func bench(_ index: DocsetIndex, file: String) throws {
        guard let bytes = try RegularFile.read(path: file, limit: 64 << 20) else {
            throw SystemError("open", path: file, code: ENOENT)
        }
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n")
        if text { return benchText(index, lines: lines) }
        _ = index.searchBlocking(SearchQuery("warm-up", limit: limit))
        for line in lines {
            let fields = line.split(separator: "\t", maxSplits: 1)
            guard fields.count == 2 else { continue }
            let start = ContinuousClock.now
            let cpuStart = Self.threadCPUMicroseconds()
            let query = SearchQuery(String(fields[1]), docsets: docsets, types: type, limit: limit)
            let results = index.searchBlocking(query)
            let cpu = Self.threadCPUMicroseconds() - cpuStart
            let elapsed = (ContinuousClock.now - start) / .microseconds(1)
            printLine("\(fields[0])\t\(Int(elapsed))\t\(results.hits.count)\t\(cpu)")
        }
    }

    /// The calling thread's CPU time (user and system), in microseconds.
    static func threadCPUMicroseconds() -> Int {
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        return now.tv_sec * 1_000_000 + now.tv_nsec / 1000
    }
}
