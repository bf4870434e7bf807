import DocSyncCLI

await DocSyncCommand.runAsync()
