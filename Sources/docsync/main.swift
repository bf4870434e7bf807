import DocSyncCLI

// `DocSyncCommand.main()` here would pick ParsableCommand's synchronous overload, which refuses async commands.
await DocSyncCommand.runAsync()
