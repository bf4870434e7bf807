import DocSyncCLI

DocSyncCommand.runMain()
