import ArgumentParser
import Testing

@testable import DocSyncCLI

/// `changes --json` read without ArgumentParser (`ChangesJSONArguments`, #35 start-up) is a subset of the one grammar:
/// where it accepts a command line, ArgumentParser reads the same values from it; everything else is left to
/// ArgumentParser (help, usage errors, other options).
@Suite(.timeLimit(.minutes(5))) struct ChangesJSONArgumentsTests {
    static let accepted: [[String]] = [
        ["changes", "--json"],
        ["changes", "--json", "--since", "0123456789abcdef-a"],
        ["changes", "--since", "0123456789abcdef-a", "--json"],
        [
            "changes", "--root", "/srv/docsets", "--json", "--since", "c", "--state", "/var/lib/ds", "--config",
            "d.toml",
        ],
        ["changes", "--json", "--root", "relative/root", "--state", "state dir with spaces"],
        ["changes", "--config", "/etc/docsync/docsync.toml", "--json"],
    ]

    static let refused: [[String]] = [
        [], ["changes"], ["--version"], ["--help"], ["status", "--json"], ["change", "--json"],
        ["changes", "--root", "/r"],
        ["changes", "--json", "--json"],
        ["changes", "--json", "--follow"], ["changes", "--json", "--cursor"],
        ["changes", "--json", "--since"], ["changes", "--json", "--root"],
        ["changes", "--json", "--since", "-1"], ["changes", "--json", "--since", "--root"],
        ["changes", "--json", "--since", ""],
        ["changes", "--json", "--since=abc"], ["changes", "--json=true"],
        ["changes", "--json", "--since", "a", "--since", "b"],
        ["changes", "--json", "--help"], ["changes", "-h", "--json"], ["changes", "--json", "help"],
        ["changes", "--json", "extra"], ["changes", "--json", "--"], ["changes", "--json", "-"],
        ["changes", "--json", "--unknown"], ["changes", "--JSON"], ["--json", "changes"],
    ]

    @Test(arguments: accepted) func readsWhatArgumentParserReads(_ arguments: [String]) throws {
        let fast = try #require(ChangesJSONArguments.parse(arguments), "\(arguments)")
        let parsed = try #require(try DocSyncCommand.parseAsRoot(arguments) as? ChangesCommand, "\(arguments)")
        #expect(fast.since == parsed.since)
        #expect(fast.config == parsed.configOptions.config)
        #expect(fast.root == parsed.rootOptions.root)
        #expect(fast.state == parsed.rootOptions.state)
        #expect(parsed.json && !parsed.follow && !parsed.cursor)
    }

    @Test(arguments: refused) func leavesEverythingElseToArgumentParser(_ arguments: [String]) {
        #expect(ChangesJSONArguments.parse(arguments) == nil, "\(arguments)")
    }

    @Test func readsOnlyTheArgumentsAfterTheExecutable() {
        let commandLine = ["/usr/bin/docsync", "changes", "--json", "--root", "/r"]
        #expect(ChangesJSONArguments.parse(commandLine.dropFirst()) == ChangesJSONArguments(root: "/r"))
        #expect(ChangesJSONArguments.parse(commandLine) == nil)
    }
}
