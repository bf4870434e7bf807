import ArgumentParser

/// `docsync feed …`: feed discovery.
struct FeedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "feed",
        abstract: "Read docset feeds (Atom with Apple's docset extension, or Dash/Zeal XML).",
        subcommands: [FeedParseCommand.self]
    )
}
