import ArgumentParser

// PLACEHOLDER: replaced by the stage's real command.
struct InstallCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "install")
    func run() async throws { throw ValidationError("not built yet") }
}
