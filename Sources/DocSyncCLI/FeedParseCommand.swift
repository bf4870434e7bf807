import ArgumentParser
import DocSync
import Foundation

/// `docsync feed parse <FILE|URL> [--base-url URL] [--max-bytes N] [--json | --check]`.
struct FeedParseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parse",
        abstract: "Parse a feed file or http(s) URL and list its docset entries.",
        discussion: """
            The format (Atom or Dash) is detected from the root element. Relative links resolve against xml:base \
            and the document URL: the fetched URL, or --base-url. On a feed that does not parse, the message goes \
            to standard error and the exit status is 65.
            """ + "\n\n" + manual
    )

    @Argument(help: "A feed file, or an http(s) URL to fetch.")
    var source: String

    @Option(name: .customLong("base-url"), help: "The URL the feed was published at (base for relative links).")
    var baseURL: String?

    @Option(name: .customLong("max-bytes"), help: "The largest feed accepted, in bytes.")
    var maxBytes = ParsedFeed.defaultMaxBytes

    @Flag(help: "Print one JSON object instead of a table.")
    var json = false

    @Flag(help: "Only check the feed: print nothing, exit 0 when it parses (65 when it does not).")
    var check = false

    func validate() throws {
        if let baseURL, !FeedSource.isAbsoluteURL(baseURL) {
            throw ValidationError("--base-url must be an absolute URL, such as https://example.com/feeds/")
        }
        if maxBytes <= 0 { throw ValidationError("--max-bytes must be a positive number of bytes") }
    }

    func run() async throws {
        let document: ParsedFeed
        do {
            document = try await FeedSource(source).load(baseURL: baseURL, maxBytes: maxBytes)
        } catch {
            printError("docsync: \(error)")
            throw Self.exitCode(for: error)
        }
        for warning in document.warnings { printError("docsync: warning: \(warning)") }
        if check {
            withExtendedLifetime(document) {}
        } else if json {
            print(FeedJSON.encode(document))
        } else {
            print(FeedTable.render(document), terminator: "")
        }
    }

    /// 65 for a feed that is bad data, 69 when it could not be fetched, 74 when the file could not be read (or libxml2
    /// could not be loaded).
    static func exitCode(for error: FeedParseError) -> ExitCode {
        switch error {
        case .unavailable: ExitStatus.unavailable
        case .unreadable: ExitStatus.ioError
        default: ExitStatus.dataError
        }
    }
}
