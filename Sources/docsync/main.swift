import DocSyncCLI

await DocSyncCommand.main()
