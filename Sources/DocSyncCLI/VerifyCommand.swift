import ArgumentParser
import DocSync

/// `docsync verify [NAME]…`: are the installed trees still what was installed?
struct VerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Compare installed docsets with the manifest recorded at install (paths, sizes, SHA-256).",
        discussion: """
            Exit status: 0 when every docset checked is intact (or cannot be checked: not installed by docsync, or \
            installed before manifests were recorded); 3 when any is damaged (`docsync sync --repair` reinstalls \
            damaged docsets); 64 for a NAME@VERSION not installed while other versions of NAME are (listed); 74 on \
            an I/O error. Each docset's text index (`search --text`) is checked too: a damaged one is reported \
            (exit 3; `docsync sync --repair` rebuilds it from the installed pages, downloading nothing), a missing \
            one is a note (the next sync builds it).
            """ + "\n\n" + manual)

    @OptionGroup var configOptions: ConfigOptions
    @OptionGroup var rootOptions: RootOptions

    @Argument(help: "Docset names (folder names without .docset, or NAME@VERSION); none: every docset in the root.")
    var names: [String] = []

    func run() async throws {
        let config = try configOptions.load(rootOptions)
        let engine = SyncEngine(configuration: config)
        if names.contains(where: { DocsetAddress.split($0) != nil }) {  // NAME@VERSION not installed: 64, as elsewhere
            let installed = try InstalledLookup.all(config, command: "verify")
            for name in names where DocsetAddress.problem(name, in: installed) != nil {
                _ = try InstalledLookup.require(name, in: installed, root: config.root, command: "verify")
            }
        }
        let results = try await exitingOnIOError({ "docsync verify: \($0)" }) {
            try await engine.verify(names: names)
        }
        for result in results {
            let name = result.name.escapingControlCharacters
            switch result.status {
            case .intact: printLine("intact    \(name)")
            case .unverifiable(let reason): printLine("unchecked \(name): \(reason)")
            case .damaged(let problems):
                printLine("DAMAGED   \(name): \(problems.count) difference\(problems.count == 1 ? "" : "s")")
                for problem in problems.prefix(20) { printLine("  \(problem.escapingControlCharacters)") }
                if problems.count > 20 { printLine("  … and \(problems.count - 20) more") }
            }
        }
        let textIndexes = await engine.verifyTextIndexes(names: names)
        for text in textIndexes {
            let label = text.damaged ? "DAMAGED  " : "note     "
            printLine("\(label) \(text.name.escapingControlCharacters): \(text.problem)")
        }
        if results.contains(where: \.isDamaged) || textIndexes.contains(where: \.damaged) {
            throw ExitStatus.partialFailure
        }
    }
}
