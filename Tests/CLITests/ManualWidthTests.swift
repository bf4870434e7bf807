import ArgumentParser
import Testing

@testable import DocSyncCLI

/// `docsync help <command>` (and `--help`) wraps the discussion at the terminal's width, 80 columns when it is not
/// a terminal: argument-parser keeps a line shorter than the width as it is and breaks a longer one at its last
/// space. The manual's prose may break anywhere; its code blocks and tables must not, so each of their lines is at
/// most 79 columns and appears whole in the help at 80.
@Suite(.timeLimit(.minutes(5))) struct ManualWidthTests {
    static func commands(_ root: any ParsableCommand.Type) -> [any ParsableCommand.Type] {
        [root] + root.configuration.subcommands.flatMap { commands($0) }
    }

    /// The lines of `discussion` inside ``` fences, and table rows.
    static func preformatted(_ discussion: String) -> [Substring] {
        var inCode = false
        var lines: [Substring] = []
        for line in discussion.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                inCode.toggle()
            } else if inCode || line.hasPrefix("|") {
                lines.append(line)
            }
        }
        return lines
    }

    @Test func everyCodeLineOfEveryCommandSurvivesEightyColumns() {
        var checked = 0
        for command in Self.commands(DocSyncCommand.self) {
            let name = command.configuration.commandName ?? "\(command)"
            let help = Set(
                DocSyncCommand.helpMessage(for: command, columns: 80).split(
                    separator: "\n", omittingEmptySubsequences: false))
            for line in Self.preformatted(command.configuration.discussion) {
                checked += 1
                #expect(line.count < 80, "\(name): a code line of \(line.count) columns: \(line)")
                #expect(help.contains(line), "\(name): `help` at 80 columns breaks: \(line)")
            }
        }
        #expect(checked > 100)  // the manuals' examples were found
    }

    @Test func aLongCodeLineIsCaught() {
        let long = String(repeating: "x ", count: 45)
        #expect(Self.preformatted("prose\n```sh\n\(long)\n```\n| a | b |\nmore") == [Substring(long), "| a | b |"])
    }
}
