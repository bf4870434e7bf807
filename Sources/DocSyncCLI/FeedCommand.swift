import ArgumentParser

// PLACEHOLDER: replaced by the stage's real command.
struct FeedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "feed")
    func run() async throws { throw ValidationError("not built yet") }
}
