import ArgumentParser
import DocSync
import Foundation

/// `docsync catalog [QUERY]`: what the catalogues offer, ranked like a search, with what is installed.
struct CatalogCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalog",
        abstract: "List or search the docsets the catalogues offer (name, title, latest version, source, installed).",
        discussion: """
            Catalogues come from the config's [catalog.*] tables and are cached like feeds. Exit status: 0, or 3 \
            when a catalogue could not be read (the others are still listed), 78 for a configuration error.
            """ + "\n\n" + manual)

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
        let shelf = await CatalogShelf.load(engine, sources: only, refresh: refresh)
        for failure in shelf.failures { printError("docsync: catalogue \(TerminalText.safe("\(failure)"))") }
        let all = (try? engine.installedDocsets()) ?? []
        let installed = Dictionary(all.map { ($0.name.lowercased(), $0) }, uniquingKeysWith: { a, _ in a })
        let ranked = shelf.ranked(query ?? "")
        let rows = ranked.map { entry -> Row in
            let name = DocsetName.safe(entry.name)
            let current = installed[name.lowercased()]
            // Versions kept side by side: the docsets named NAME@VERSION.
            let kept = all.filter { $0.name.lowercased().hasPrefix(name.lowercased() + "@") }.compactMap {
                $0.version ?? DocsetAddress.split($0.name)?.version
            }
            return Row(
                name: entry.name, title: entry.title, source: entry.source.rawValue,
                standing: CatalogStanding(
                    latest: entry.latestVersion, latestRevision: entry.revision,
                    installed: current.map(\.version), installedRevision: current?.revision),
                kept: kept.sorted { DocsetVersion(dash: $0) > DocsetVersion(dash: $1) })
        }
        if json { printJSON(rows) } else { printTable(rows) }
        if !shelf.failures.isEmpty { throw ExitStatus.partialFailure }
    }

    struct Row {
        var name, title, source: String
        var standing: CatalogStanding
        /// Other versions installed side by side (`NAME@VERSION` docsets), newest first.
        var kept: [String] = []
    }

    private func printTable(_ rows: [Row]) {
        guard !rows.isEmpty else {
            print(query.map { "No docset matches \"\(TerminalText.safe($0))\"." } ?? "The catalogues are empty.")
            return
        }
        let cells: [[String]] =
            [["NAME", "TITLE", "LATEST", "SOURCE", "INSTALLED"]]
            + rows.map { row in
                let standing = row.standing
                let latest = CatalogStanding.text(standing.latest, revision: standing.latestRevision) ?? "-"
                var installed = ""
                if let status = standing.status {
                    let version = CatalogStanding.text(standing.installed, revision: standing.installedRevision)
                    installed = version.map { status == .installed ? $0 : "\($0) (\(status.rawValue))" }
                        ?? (status == .installed ? "yes" : "yes (\(status.rawValue))")
                }
                if !row.kept.isEmpty {
                    installed += (installed.isEmpty ? "" : "; ") + "side by side: " + row.kept.joined(separator: ", ")
                }
                return [row.name, row.title, latest, row.source, installed].map(TerminalText.safe)
            }
        let widths = (0..<4).map { column in min(40, cells.map { $0[column].count }.max() ?? 0) }
        for row in cells {
            var line = ""
            for (cell, w) in zip(row, widths) {
                line += cell.padding(toLength: max(w, cell.count), withPad: " ", startingAt: 0) + "  "
            }
            let text = line + row[4]
            print(String(text.reversed().drop { $0 == " " }.reversed()))
        }
    }

    /// `{"schema": 1, "docsets": [{name, title, source, latest, latest_revision, installed, installed_revision,
    /// status, side_by_side}]}` (JSONObjects.md): every member always present, null when there is none
    /// (`side_by_side`: the versions kept beside it, newest first, `[]` when none).
    private func printJSON(_ rows: [Row]) {
        struct Listing: Encodable {
            struct Docset: Encodable {
                var name, title, source: String
                var standing: CatalogStanding
                var kept: [String]

                enum CodingKeys: String, CodingKey {
                    case name, title, source, latest, installed, status
                    case sideBySide = "side_by_side"
                    case latestRevision = "latest_revision"
                    case installedRevision = "installed_revision"
                }

                func encode(to encoder: any Encoder) throws {
                    var container = encoder.container(keyedBy: CodingKeys.self)
                    try container.encode(name, forKey: .name)
                    try container.encode(title, forKey: .title)
                    try container.encode(source, forKey: .source)
                    try container.encode(standing.latest, forKey: .latest)
                    try container.encode(standing.latestRevision, forKey: .latestRevision)
                    try container.encode(standing.installed, forKey: .installed)
                    try container.encode(standing.installedRevision, forKey: .installedRevision)
                    try container.encode(standing.status?.rawValue, forKey: .status)
                    try container.encode(kept, forKey: .sideBySide)
                }
            }
            var schema = DocSyncJSON.schema
            var docsets: [Docset]
        }
        let docsets = rows.map {
            Listing.Docset(name: $0.name, title: $0.title, source: $0.source, standing: $0.standing, kept: $0.kept)
        }
        print((try? DocSyncJSON.line(Listing(docsets: docsets))) ?? "{}")
    }
}
