import ArgumentParser
import DocSync
import DocSyncSupport
import Foundation

/// `docsync sync`: the main job.
struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Refresh every feed, then download and install new or updated docsets.",
        discussion: """
            Exit status: 0 when everything synced, 3 when some docsets, feeds or post-install hooks failed (the \
            others still synced) or an installed docset is damaged (--repair reinstalls it), 64 for an --only \
            name that matches nothing, 75 when another sync is running (use --wait), 78 for a configuration \
            error or an unusable root / staging / state folder, 130 when interrupted (the next sync resumes). The \
            whole table: docsync help.
            """ + "\n\n" + manual)

    @OptionGroup var configOptions: ConfigOptions

    @Flag(help: "Wait for a running sync to finish instead of exiting with status 75.")
    var wait = false

    @Flag(help: "Ask servers even for feeds still fresh by their Cache-Control / Expires headers.")
    var refresh = false

    @Option(parsing: .upToNextOption, help: "Only these docsets (folder names without .docset).")
    var only: [String] = []

    @Flag(help: "Print the plan and stop: nothing is downloaded, installed or removed.")
    var dryRun = false

    @Flag(help: "Download first, then install (no extraction while downloading).")
    var noStreaming = false

    @Flag(help: "Newline-delimited JSON events on standard output instead of text.")
    var json = false

    @Flag(help: "Install exactly what docsync.lock says (checksums enforced); fail on drift.")
    var locked = false

    @Flag(help: "Reinstall docsets whose installed files no longer match what was installed (see `docsync verify`).")
    var repair = false

    @Flag(help: "Then convert installed docsets to the configured [install] layout (no download).")
    var relayout = false

    func run() async throws {
        var config = try configOptions.load()
        if noStreaming { config.install.streaming = false }
        var options = SyncOptions(refresh: refresh, only: Set(only), dryRun: dryRun, wait: wait, repair: repair)
        if locked { options.lock = try LockFile.loadForCLI(configFile: configOptions.file()) }
        let (json, loaded, chosen) = (self.json, config, options)
        let summary = try await Self.interruptible(staging: config.staging) {
            try await Self.runOnce(config: loaded, options: chosen, json: json)
        }
        var converted = true
        if relayout, !dryRun { converted = try await Self.relayout(config: loaded, json: json) }
        if !summary.isSuccess || !converted { throw ExitStatus.partialFailure }
    }

    /// `--relayout`: one line (or JSON event) per docset converted; false when any conversion failed.
    static func relayout(config: DocSyncConfiguration, json: Bool) async throws -> Bool {
        let results: [SyncEngine.Relayout]
        do {
            results = try await SyncEngine(configuration: config).relayout()
        } catch {
            printError("docsync: relayout: \(error)")
            throw ExitStatus.ioError
        }
        for result in results {
            let name = result.name.escapingControlCharacters
            if json {
                var line = "{\"event\":\"relayout\",\"from\":\"\(result.from.rawValue)\",\"name\":"
                JSONText.appendString(result.name, to: &line)
                line += ",\"ok\":\(result.failure == nil),\"schema\":1,\"to\":\"\(result.to.rawValue)\"}"
                printLine(line)
            } else if let failure = result.failure {
                printLine("failed    \(name): relayout to \(result.to.rawValue): \(failure.escapingControlCharacters)")
            } else {
                printLine("relayout  \(name): \(result.from.rawValue) → \(result.to.rawValue)")
            }
        }
        return results.allSatisfy { $0.failure == nil }
    }

    /// One sync with output. Throws an `ExitCode` for a busy lock.
    static func runOnce(config: DocSyncConfiguration, options: SyncOptions, json: Bool) async throws -> SyncSummary {
        let reporter = json ? nil : SyncReporter()
        var summary = SyncSummary()
        do {
            for try await event in SyncEngine.withMetrics(config).sync(options) {
                if let reporter {
                    reporter.handle(event, dryRun: options.dryRun)
                } else {
                    printLine(event.jsonLine())
                }
                if case .summary(let s) = event { summary = s }
            }
        } catch {
            guard error.exclusion != nil else { throw error }
            printError("docsync: \(error)\(error == .busy ? "; use --wait to queue behind it" : "")")
            if error == .busy { throw ExitStatus.busy }
            throw ExitStatus.ioError
        }
        return summary
    }
}
