import ArgumentParser
import DocSync

/// `docsync remove NAME`: atomic, like install.
struct RemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Remove an installed docset (readers that have it open keep it for the grace period).",
        discussion: manual)

    @OptionGroup var configOptions: ConfigOptions
    @OptionGroup var rootOptions: RootOptions

    @Argument(help: "The docset's folder name, without .docset, or NAME@VERSION for one version kept side by side.")
    var name: String

    func run() async throws {
        let config = try configOptions.load(rootOptions)
        do {
            try await SyncEngine(configuration: config).remove(name: name)
            print("removed \(name.escapingControlCharacters)")
        } catch where error.code == .notInstalled {
            throw error  // exit 64, with the names that exist and the nearest
        } catch {
            printError("docsync: cannot remove \(name): \(error)")
            throw ExitStatus.dataError
        }
    }
}
