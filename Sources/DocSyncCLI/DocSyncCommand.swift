import ArgumentParser
import DocSyncSupport

/// `docsync`: keeps a folder of docsets in sync with publishers' feeds.
package struct DocSyncCommand: AsyncParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "docsync",
        abstract: "Keep a folder of documentation sets (docsets) in sync with their publishers' feeds.",
        discussion: ExitStatus.table,
        version: BuildInfo.versionLine,
        subcommands: [
            SyncCommand.self, StatusCommand.self, RemoveCommand.self, DaemonCommand.self, FeedCommand.self,
            FetchCommand.self, InstallCommand.self, CatalogCommand.self, AddCommand.self, DropCommand.self,
            AdoptCommand.self, InitCommand.self, LockCommand.self, VerifyCommand.self, SearchCommand.self,
            EntriesCommand.self, MirrorCommand.self, LeaseCommand.self, CatCommand.self, ServeCommand.self,
            McpCommand.self,
            ChangesCommand.self, DiffCommand.self,
        ]
    )

    package init() {}
}
