import ArgumentParser
import DocSync
import DocSyncConfigFile
import Foundation

/// `docsync drop NAME…`: remove `[[docset]]` tables from the config file.
struct DropCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "drop",
        abstract: "Deselect docsets: removes their [[docset]] tables from the config, keeping its comments.",
        discussion: """
            The installed docset stays until a sync with prune = true, or `docsync remove NAME`. Exit status: 0, \
            65 when a NAME is not selected (the others are still removed), 78 for a configuration error.
            """)

    @OptionGroup var configOptions: ConfigOptions

    @Argument(help: "Names as written in the [[docset]] tables (case-insensitive).")
    var names: [String]

    @OptionGroup var editOptions: ConfigEditOptions

    func run() async throws {
        _ = try configOptions.load()
        let file = try configOptions.file()
        let original = try ConfigFileEdit.read(file)
        let edit = ConfigEditor.dropping(names, from: original)
        try ConfigFileEdit.apply(edit, original: original, file: file, dryRun: editOptions.dryRun)
        if !editOptions.dryRun {
            for name in edit.changed { print("Dropped \(TerminalText.safe(name)) from \(file).") }
        }
        for name in edit.untouched { printError("docsync: \(TerminalText.safe(name)) is not selected in \(file)") }
        if !edit.untouched.isEmpty { throw ExitStatus.dataError }
    }
}
