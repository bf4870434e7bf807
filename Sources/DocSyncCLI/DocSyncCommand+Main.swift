import ArgumentParser

extension DocSyncCommand {
    /// Parses the command line and runs the chosen subcommand asynchronously. `DocSyncCommand.main()` from a
    /// `main.swift` resolves to ParsableCommand's synchronous `main`, which refuses async subcommands.
    public static func runAsync() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }
}
