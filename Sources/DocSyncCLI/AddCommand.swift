import ArgumentParser
import DocSync
import DocSyncConfigFile
import Foundation

/// `docsync add NAME…`: select docsets by catalogue name, appending `[[docset]]` tables to the config file.
struct AddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Select docsets by catalogue name: appends [[docset]] tables to the config, keeping its comments.",
        discussion: """
            Names are checked against the catalogues (case-insensitive, aliases become the catalogue name); an \
            unknown name is an error with suggestions and nothing is written. Exit status: 0, 65 for an unknown \
            name, 78 for a configuration error.
            """ + "\n\n" + manual)

    @OptionGroup var configOptions: ConfigOptions

    @Argument(help: "Catalogue names or aliases (Python_3, py3, Jest).")
    var names: [String]

    @Option(help: "Pin this version (only with one NAME).")
    var version: String?

    @Option(help: "Only this catalogue: zeal, kapeli, contrib or cheatsheets.")
    var source: String?

    @OptionGroup var editOptions: ConfigEditOptions

    @Flag(help: "Do not check the names against the catalogues.")
    var noCheck = false

    @Flag(
        name: .customLong("init"),
        help: "With no configuration file, write the documented one first (root = Zeal's docset folder).")
    var initialize = false

    func validate() throws {
        if version != nil && names.count != 1 { throw ValidationError("--version needs exactly one NAME") }
        if let source, CatalogSource(rawValue: source.lowercased()) == nil {
            throw ValidationError("--source: one of zeal, kapeli, contrib, cheatsheets")
        }
    }

    func run() async throws {
        try FirstRun.offer(configOptions, initialize: initialize, root: nil)
        let config = try configOptions.load()
        let file = try configOptions.file()
        let original = try ConfigFileEdit.read(file)
        let wanted = source.flatMap { CatalogSource(rawValue: $0.lowercased()) }
        var selections = names.map { DocSyncConfiguration.DocsetSelection(name: $0, version: version, source: wanted) }
        if !noCheck && wanted != .kapeli {
            let shelf = await CatalogShelf.load(SyncEngine(configuration: config), sources: wanted.map { [$0] })
            for failure in shelf.failures { printError("docsync: catalogue \(TerminalText.safe("\(failure)"))") }
            var unknown = false
            for index in selections.indices {
                switch shelf.resolve(selections[index].name, source: wanted) {
                case .found(let entry):
                    selections[index].name = entry.name
                case .missing(let suggestions) where shelf.failures.isEmpty:
                    let hint = suggestions.isEmpty ? "" : "; did you mean \(suggestions.joined(separator: " or "))?"
                    printError("docsync: \(TerminalText.safe(selections[index].name)) is not in the catalogues\(hint)")
                    unknown = true
                case .missing:
                    printError(
                        "docsync: warning: \(TerminalText.safe(selections[index].name)) not checked (a catalogue "
                            + "could not be read)")
                }
            }
            if unknown { throw ExitStatus.dataError }
        }
        let edit = ConfigEditor.adding(selections, to: original)
        for name in edit.untouched { printError("docsync: \(TerminalText.safe(name)) is already selected") }
        try ConfigFileEdit.apply(edit, original: original, file: file, dryRun: editOptions.dryRun)
        if !editOptions.dryRun {
            for name in edit.changed {
                print("Added \(TerminalText.safe(name)) to \(file) (installed by the next sync).")
            }
        }
    }
}
