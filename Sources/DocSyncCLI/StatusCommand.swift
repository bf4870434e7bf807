import ArgumentParser
import DocSync
import Foundation

/// `docsync status`: what is installed, what is half-downloaded, and how the last sync went per feed.
struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Show installed docsets, partial downloads and the last result per feed.")

    @OptionGroup var configOptions: ConfigOptions

    @Flag(help: "One JSON object on standard output.")
    var json = false

    func run() async throws {
        let config = try configOptions.load()
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
        if json {
            printJSON(installed: installed, partials: partials, record: record)
        } else {
            printText(root: config.root, installed: installed, partials: partials, record: record)
        }
    }

    private func printText(
        root: String, installed: [InstalledDocset], partials: [PartialDownload], record: SyncRecord?
    ) {
        print("Docsets in \(root):")
        if installed.isEmpty { print("  (none)") }
        let width = max(4, installed.map(\.name.count).max() ?? 0)
        for d in installed.sorted(by: { $0.name < $1.name }) {
            let version = [d.version, d.revision].compactMap { $0 }.joined(separator: "/")
            let size = d.sizeOnDisk.map(ProgressRenderer.bytes) ?? "-"
            let when = d.installedAt.map { ISO8601DateFormatter().string(from: $0) } ?? "-"
            let source = d.sourceURL ?? "(not installed by docsync)"
            print(
                "  \(d.name.padding(toLength: width, withPad: " ", startingAt: 0))  \(version.isEmpty ? "-" : version)"
                    + "  \(size)  \(when)  \(source)")
        }
        if !partials.isEmpty {
            print("Partial downloads:")
            for p in partials {
                let total = p.total.map { " of \(ProgressRenderer.bytes($0))" } ?? ""
                print("  \(p.url)  \(ProgressRenderer.bytes(p.bytes))\(total)")
            }
        }
        guard let record else {
            print("No sync has run yet.")
            return
        }
        print("Last sync \(ISO8601DateFormatter().string(from: record.finishedAt)):")
        for feed in record.feeds { print("  \(feed.ok ? "ok    " : "FAILED") \(feed.feed): \(feed.detail)") }
    }

    private func printJSON(installed: [InstalledDocset], partials: [PartialDownload], record: SyncRecord?) {
        let iso = ISO8601DateFormatter()
        var object: [String: Any] = [
            "docsets": installed.sorted { $0.name < $1.name }.map { d -> [String: Any] in
                var o: [String: Any] = ["name": d.name, "path": d.path, "index": d.indexPath]
                if let v = d.version { o["version"] = v }
                if let r = d.revision { o["revision"] = r }
                if let i = d.identifier { o["identifier"] = i }
                if let s = d.sizeOnDisk { o["size"] = s }
                if let t = d.installedAt { o["installed_at"] = iso.string(from: t) }
                if let u = d.sourceURL { o["source"] = u }
                return o
            },
            "partial_downloads": partials.map { p -> [String: Any] in
                var o: [String: Any] = ["url": p.url, "bytes": p.bytes]
                if let t = p.total { o["total"] = t }
                return o
            },
        ]
        if let record {
            object["last_sync"] = [
                "finished_at": iso.string(from: record.finishedAt),
                "feeds": record.feeds.map { ["feed": $0.feed, "ok": $0.ok, "detail": $0.detail] },
            ]
        }
        let data =
            (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
            ?? Data()
        print(String(decoding: data, as: UTF8.self))
    }
}
