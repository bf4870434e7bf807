import ArgumentParser

extension DocSyncCommand {
    /// Runs the command line through AsyncParsableCommand's entry point (called from `main.swift`).
    public static func runAsync() async {
        let command: any AsyncParsableCommand.Type = DocSyncCommand.self
        await command.main()
    }
}
