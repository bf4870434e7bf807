import DocSync
import DocSyncConfigFile
import Foundation
import TestSupport
import Testing

/// A first run: `docsync init` writes the documented configuration (root = Zeal's folder, else --root); `add` and
/// `adopt` with no configuration offer it at a terminal or write it with `--init`, and say where; nothing is ever
/// written silently.
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct FirstRunTests {
    /// A home folder with no configuration; `zeal`: with Zeal's default docset folder.
    func home(zeal: Bool) throws -> (TemporaryDirectory, [String: String]) {
        let dir = try TemporaryDirectory("first-run")
        if zeal {
            try FileManager.default.createDirectory(
                atPath: dir.appending("home/.local/share/Zeal/Zeal/docsets"), withIntermediateDirectories: true)
        }
        try FileManager.default.createDirectory(atPath: dir.appending("home"), withIntermediateDirectories: true)
        var environment = Tool.environment(["HOME": dir.appending("home")])
        for name in ["DOCSYNC_CONFIG", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CONFIG_DIRS"] {
            environment[name] = nil
        }
        environment["XDG_CONFIG_DIRS"] = dir.appending("etc-xdg")  // never the machine's /etc/xdg
        return (dir, environment)
    }

    @Test func theTemplateIsTheDocumentedFile() throws {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("config/docsync.toml")
        let documented = try String(contentsOf: source, encoding: .utf8)
        #expect(FirstConfig.text(root: "~/.local/share/Zeal/Zeal/docsets") == documented)
        #expect(FirstConfig.text(root: "/a \"b\"\\c").contains(#"root = "/a \"b\"\\c""#))
    }

    @Test(arguments: [
        ("[General]\npath=/x\n[docsets]\npath=/srv/docsets\n", "/srv/docsets"),
        ("[docsets]\npath=\"/with space\"\n", "/with space"), ("[docsets]\n", nil), ("", nil),
    ])
    func zealSettings(ini: String, expected: String?) {
        #expect(FirstConfig.settingsPath(ini) == expected)
    }

    @Test func initWritesTheDocumentedConfigWithZealsFolderAndNeverReplacesIt() throws {
        let (dir, environment) = try home(zeal: true)
        defer { dir.remove() }
        let written = try Tool.run(Tool.docsyncBinary, ["init"], environment: environment)
        #expect(written.status == 0, "\(written.standardError)")
        let path = dir.appending("home/.config/docsync/docsync.toml")
        #expect(written.standardOutput.contains(path))
        let zeal = dir.appending("home/.local/share/Zeal/Zeal/docsets")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text == FirstConfig.text(root: zeal))
        #expect(try DocSyncConfigurationLoader(environment: environment).load(file: path).root == zeal)
        let again = try Tool.run(Tool.docsyncBinary, ["init"], environment: environment)
        #expect(again.status == 78 && again.standardError.contains("already exists"))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == text)

        // Zeal's own settings name another folder: that one.
        let moved = dir.appending("zeal-docsets")
        try FileManager.default.createDirectory(atPath: moved, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            atPath: dir.appending("home/.config/Zeal"), withIntermediateDirectories: true)
        try "[docsets]\npath=\(moved)\n".write(
            toFile: dir.appending("home/.config/Zeal/Zeal.conf"), atomically: true, encoding: .utf8)
        let other = dir.appending("other.toml")
        #expect(try Tool.run(Tool.docsyncBinary, ["init", "--config", other], environment: environment).status == 0)
        #expect(try DocSyncConfigurationLoader(environment: environment).load(file: other).root == moved)
    }

    @Test func initWithoutZealNeedsRoot() throws {
        let (dir, environment) = try home(zeal: false)
        defer { dir.remove() }
        let missing = try Tool.run(Tool.docsyncBinary, ["init"], environment: environment)
        #expect(missing.status == 64 && missing.standardError.contains("--root"))
        #expect(!FileManager.default.fileExists(atPath: dir.appending("home/.config/docsync/docsync.toml")))
        let custom = dir.appending("custom.toml")
        let given = try Tool.run(
            Tool.docsyncBinary, ["init", "--root", dir.appending("docsets"), "--config", custom],
            environment: environment)
        #expect(given.status == 0, "\(given.standardError)")
        #expect(try DocSyncConfigurationLoader(environment: environment).load(file: custom).root == dir.appending("docsets"))
    }

    @Test func addWithoutConfigAsksOrWritesWithInitAndNeverSilently() throws {
        let (dir, environment) = try home(zeal: true)
        defer { dir.remove() }
        let path = dir.appending("home/.config/docsync/docsync.toml")
        // Not a terminal, no --init: nothing written, and the message says how.
        let refused = try Tool.run(Tool.docsyncBinary, ["add", "--no-check", "Go"], environment: environment)
        #expect(refused.status == 78)
        #expect(refused.standardError.contains("docsync init") && refused.standardError.contains(path))
        #expect(!FileManager.default.fileExists(atPath: path))

        let initialized = try Tool.run(
            Tool.docsyncBinary, ["add", "--init", "--no-check", "Go"], environment: environment)
        #expect(initialized.status == 0, "\(initialized.standardError)")
        #expect(initialized.standardError.contains("wrote \(path)"))
        let config = try DocSyncConfigurationLoader(environment: environment).load(file: path)
        #expect(config.docsets.map(\.name) == ["Go"])
        #expect(config.root == dir.appending("home/.local/share/Zeal/Zeal/docsets"))
    }

    @Test func adoptAtATerminalAsksFirst() throws {
        let (dir, environment) = try home(zeal: true)
        defer { dir.remove() }
        let path = dir.appending("home/.config/docsync/docsync.toml")
        for (answer, written) in [("n", false), ("y", true)] {
            // `script` gives the command a terminal; the answer is typed on it.
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
            process.arguments = ["-qec", "\(Tool.docsyncBinary) adopt --dry-run", "/dev/null"]
            process.environment = environment
            let input = Pipe()
            let output = Pipe()
            process.standardInput = input
            process.standardOutput = output
            process.standardError = output
            try process.run()
            input.fileHandleForWriting.write(Data("\(answer)\n".utf8))
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            try? input.fileHandleForWriting.close()
            let status = process.waitForExit()
            #expect(text.contains("[y/N]"), "\(text)")
            #expect(FileManager.default.fileExists(atPath: path) == written, "\(answer): \(text)")
            #expect(written ? status == 0 && text.contains("wrote \(path)") : status == 78, "\(text)")
        }
    }
}
