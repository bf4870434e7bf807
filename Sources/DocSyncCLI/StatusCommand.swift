import ArgumentParser
import DocSync
import Foundation

/// `docsync status`: what is installed, what is half-downloaded, and how the last sync went per feed.
struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Show installed docsets, partial downloads and the last result per feed.",
        discussion: manual)

    @OptionGroup var configOptions: ConfigOptions
    @OptionGroup var rootOptions: RootOptions

    @Flag(help: "One JSON object on standard output.")
    var json = false

    func run() async throws {
        let config = try configOptions.load(rootOptions)
        let engine = SyncEngine(configuration: config)
        let installed: [InstalledDocset]
        do {
            installed = try engine.installedDocsets()
        } catch {
            printError("docsync: cannot read \(config.root): \(error)")
            throw ExitStatus.ioError
        }
        let partials = engine.partialDownloads()
        let record = SyncRecord.load(stateDirectory: config.state)
        let reclaimable = engine.reclaimable()
        let activity = StatusActivity(stateDirectory: config.state)
        if json {
            printJSON(
                installed: installed, partials: partials, record: record, reclaimable: reclaimable, activity: activity,
                text: installed.map(engine.textIndex(of:)))
        } else {
            for line in activity.lines { print(line) }
            printText(root: config.root, installed: installed, partials: partials, record: record, engine: engine)
            printReclaimable(reclaimable, maxAge: config.install.partialMaxAge)
        }
    }

    private func printText(
        root: String, installed: [InstalledDocset], partials: [PartialDownload], record: SyncRecord?,
        engine: SyncEngine
    ) {
        func safe(_ text: String) -> String { text.redactingCredentials.escapingControlCharacters }
        print("Docsets in \(safe(root)):")
        if installed.isEmpty { print("  (none)") }
        let width = max(4, installed.map { safe($0.name).count }.max() ?? 0)
        for d in installed.sorted(by: { $0.name < $1.name }) {
            let version = safe([d.version, d.revision].compactMap { $0 }.joined(separator: "/"))
            let usage = DiskUsage.of(d)
            let text = engine.textIndex(of: d)
            let textSize = text.bytes.map { "text index \(ProgressRenderer.bytes($0))" } ?? "text index \(text.state)"
            let size =
                "\(d.layout.rawValue), \(usage.files) files, \(ProgressRenderer.bytes(usage.bytes)), \(textSize)"
            let when = d.installedAt.map { ISO8601DateFormatter().string(from: $0) } ?? "-"
            let source =
                d.sourceURL.map(safe) ?? (d.installedAt == nil ? "(not installed by docsync)" : "(from a local archive)")
            print(
                "  \(safe(d.name).padding(toLength: width, withPad: " ", startingAt: 0))  \(version.isEmpty ? "-" : version)"
                    + "  \(size)  \(when)  \(source)")
            if !d.keywords.isEmpty { print("    keywords: \(safe(d.keywords.joined(separator: ", ")))") }
            if !ReaderView.inspect(docsetPath: d.path).loadable {
                print(
                    "    Zeal cannot load it: no Contents/Resources/Documents folder nor tarix store "
                        + "(reinstall it with docsync)")
            }
        }
        if !partials.isEmpty {
            print("Partial downloads:")
            for p in partials { print(StatusActivity.partialLine(p, url: safe(p.url), now: Date())) }
        }
        guard let record else {
            print("No sync has run yet.")
            return
        }
        print("Last sync \(ISO8601DateFormatter().string(from: record.finishedAt)):")
        for feed in record.feeds {
            print("  \(feed.ok ? "ok    " : "FAILED") \(safe(feed.feed)): \(safe(feed.detail))")
        }
    }

    private func printReclaimable(_ r: Reclaimable, maxAge: Duration) {
        guard r.trashBytes > 0 || r.stalePartials > 0 else { return }
        print("Reclaimable (deleted by the next sync):")
        if r.trashBytes > 0 { print("  trash: \(ProgressRenderer.bytes(r.trashBytes))") }
        if r.stalePartials > 0 {
            print(
                "  \(r.stalePartials) partial download\(r.stalePartials == 1 ? "" : "s") untouched for more than "
                    + "\(ProgressRenderer.duration(Double(maxAge.components.seconds))) "
                    + "(partial_max_age; kept while a feed still offers that version): "
                    + ProgressRenderer.bytes(r.stalePartialBytes))
        }
    }

    private func printJSON(
        installed: [InstalledDocset], partials: [PartialDownload], record: SyncRecord?, reclaimable: Reclaimable,
        activity: StatusActivity, text: [(state: String, bytes: Int64?)]
    ) {
        var object = StatusJSON(
            installed: installed, partials: partials, record: record, reclaimable: reclaimable, activity: activity)
        let byName = Dictionary(zip(installed.map(\.name), text), uniquingKeysWith: { a, _ in a })
        object.textIndexes = object.docsets.map {
            StatusJSON.TextIndex(name: $0.name, state: byName[$0.name]?.state ?? "none", bytes: byName[$0.name]?.bytes)
        }
        print((try? DocSyncJSON.line(object)) ?? "{}")
    }
}
