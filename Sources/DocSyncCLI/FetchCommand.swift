import ArgumentParser

// PLACEHOLDER: replaced by the stage's real command.
struct FetchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "fetch")
    func run() async throws { throw ValidationError("not built yet") }
}
