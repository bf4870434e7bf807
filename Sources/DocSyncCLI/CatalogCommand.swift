import ArgumentParser
import DocSync
import DocSyncCatalog
import Foundation

/// `docsync catalog [QUERY]`: what the catalogues offer, ranked like a search, with what is installed.
struct CatalogCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalog",
        abstract: "List or search the docsets the catalogues offer (name, title, latest version, source, installed).",
        discussion: """
            Catalogues come from the config's [catalog.*] tables and are cached like feeds. Exit status: 0, or 3 \
            when a catalogue could not be read (the others are still listed), 78 for a configuration error.
            """)

    @OptionGroup var configOptions: ConfigOptions

    @Argument(help: "Search words (name, title, alias); all docsets when absent.")
    var query: String?

    @Option(help: "Only this catalogue: zeal, contrib or cheatsheets.")
    var source: String?

    @Flag(help: "Ask servers even for catalogues still fresh by their caching headers.")
    var refresh = false

    @Flag(help: "A JSON array on standard output instead of a table.")
    var json = false

    func run() async throws {
        let config = try configOptions.load()
        var only: Set<CatalogSource>? = nil
        if let source {
            guard let parsed = CatalogSource(rawValue: source.lowercased()), parsed != .kapeli else {
                printError("docsync: --source \(TerminalText.safe(source)): one of zeal, contrib, cheatsheets")
                throw ExitCode.validationFailure
            }
            only = [parsed]
        }
        let engine = SyncEngine(configuration: config)
        let loaded = await engine.catalogLoader.load(only, refresh: refresh)
        for failure in loaded.failures { printError("docsync: catalogue \(TerminalText.safe("\(failure)"))") }
        let installed = Dictionary(
            ((try? engine.installedDocsets()) ?? []).map { ($0.name.lowercased(), $0) }, uniquingKeysWith: { a, _ in a }
        )
        let ranked = CatalogSearch.rank(loaded.catalogs.flatMap(\.entries), query: query ?? "")
        let rows = ranked.map { entry -> Row in
            let current = installed[DocsetName.safe(entry.name).lowercased()]
            return Row(
                name: entry.name, title: entry.title, latest: entry.latestVersion ?? "", source: entry.source.rawValue,
                installed: current.map {
                    let version = [$0.version, $0.revision].compactMap { $0 }.joined(separator: "/")
                    return version.isEmpty ? "yes" : version
                })
        }
        if json { printJSON(rows) } else { printTable(rows) }
        if !loaded.failures.isEmpty { throw ExitStatus.partialFailure }
    }

    struct Row {
        var name, title, latest, source: String
        var installed: String?
    }

    private func printTable(_ rows: [Row]) {
        guard !rows.isEmpty else {
            print(query.map { "No docset matches \"\(TerminalText.safe($0))\"." } ?? "The catalogues are empty.")
            return
        }
        let header = Row(name: "NAME", title: "TITLE", latest: "LATEST", source: "SOURCE", installed: "INSTALLED")
        let all = [header] + rows
        func width(_ key: (Row) -> String) -> Int { min(40, all.map { key($0).count }.max() ?? 0) }
        let widths = [width(\.name), width(\.title), width(\.latest), width(\.source)]
        for row in all {
            let cells = [row.name, row.title, row.latest.isEmpty ? "-" : row.latest, row.source].map(TerminalText.safe)
            var line = ""
            for (cell, w) in zip(cells, widths) {
                line += cell.padding(toLength: max(w, cell.count), withPad: " ", startingAt: 0) + "  "
            }
            let text = line + TerminalText.safe(row.installed ?? "")
            print(String(text.reversed().drop { $0 == " " }.reversed()))
        }
    }

    /// `{"schema": 1, "docsets": [{name, title, latest, source, installed}]}` (JSONObjects.md).
    private func printJSON(_ rows: [Row]) {
        struct Listing: Encodable {
            struct Docset: Encodable {
                var name, title, source: String
                var latest, installed: String?
            }
            var schema = DocSyncJSON.schema
            var docsets: [Docset]
        }
        let docsets = rows.map {
            Listing.Docset(
                name: $0.name, title: $0.title, source: $0.source, latest: $0.latest.isEmpty ? nil : $0.latest,
                installed: $0.installed)
        }
        print((try? DocSyncJSON.line(Listing(docsets: docsets))) ?? "{}")
    }
}
