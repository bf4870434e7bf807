import ArgumentParser
import DocSync
import DocSyncConfigFile
import Foundation

/// `docsync init`: writes the documented configuration for this machine.
struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Write the documented configuration file, root = Zeal's docset folder (or --root).",
        discussion: """
            Writes config/docsync.toml's text (every key, commented, with its default) to --config FILE, else \
            $DOCSYNC_CONFIG, else $XDG_CONFIG_HOME/docsync/docsync.toml (~/.config/docsync/docsync.toml), with \
            root set to --root, else to Zeal's own docset folder (Zeal.conf's [docsets] path, else \
            ~/.local/share/Zeal/Zeal/docsets) when it exists. An existing file is never replaced. Exit status: 0, \
            64 when there is no Zeal folder and no --root, 78 when the file exists or cannot be written.
            """ + "\n\n" + manual)

    @OptionGroup var configOptions: ConfigOptions

    @Option(help: "The docset folder (default: Zeal's own, when it exists).", completion: .directory)
    var root: String?

    func run() throws {
        let path = configOptions.config ?? FirstConfig.defaultPath()
        let written = try FirstRun.write(to: path, root: root)
        print("Wrote \(TerminalText.safe(path)) (root = \(TerminalText.safe(written))).")
        print("Next: docsync add NAME (or docsync adopt), then docsync sync.")
    }
}

/// A first run without a configuration: `init`, and `add` / `adopt` offering it (on a terminal) or doing it
/// (`--init`). Says where it wrote; never writes silently.
enum FirstRun {
    /// Writes the first configuration to `path`; returns the root it chose.
    static func write(to path: String, root: String?) throws -> String {
        let chosen: String
        if let root {
            let absolute = root.hasPrefix("/") || root.hasPrefix("~")
            chosen = absolute ? root : FileManager.default.currentDirectoryPath + "/" + root
        } else if let zeal = FirstConfig.zealDocsets() {
            chosen = zeal
        } else {
            printError(
                "docsync: no Zeal docset folder found (Zeal.conf's [docsets] path, ~/.local/share/Zeal/Zeal/docsets); "
                    + "pass --root DIR")
            throw ExitStatus.usage
        }
        do { try FirstConfig.write(root: chosen, to: path) } catch {
            printError("docsync: \(TerminalText.safe("\(error)"))")
            throw ExitStatus.configError
        }
        return chosen
    }

    /// Before `add` / `adopt` load the configuration: when there is none, writes one if `initialize` is set or the
    /// user agrees at a terminal prompt, saying where; otherwise leaves everything as is (the load then reports it).
    static func offer(_ options: ConfigOptions, initialize: Bool, root: String?) throws {
        let loader = DocSyncConfigurationLoader.processEnvironment()
        if let file = options.config, FileManager.default.fileExists(atPath: file) { return }
        if options.config == nil, loader.locate() != nil { return }
        let path = options.config ?? FirstConfig.defaultPath()
        if !initialize {
            guard isatty(STDIN_FILENO) == 1, isatty(STDERR_FILENO) == 1 else {
                printError(
                    "docsync: no configuration file found; `docsync init` (or --init) writes one at "
                        + "\(TerminalText.safe(path))")
                throw ExitStatus.configError
            }
            let rootText = root ?? FirstConfig.zealDocsets() ?? "(none found: pass --root)"
            let question =
                "docsync: no configuration file found. Write the documented one to \(TerminalText.safe(path)) "
                + "with root = \(TerminalText.safe(rootText))? [y/N] "
            FileHandle.standardError.write(Data(question.utf8))
            let answer = readLine()?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
            guard answer == "y" || answer == "yes" else {
                printError("docsync: nothing written; `docsync init` writes it when you want")
                throw ExitStatus.configError
            }
        }
        let written = try write(to: path, root: root)
        printError("docsync: wrote \(TerminalText.safe(path)) (root = \(TerminalText.safe(written)))")
    }
}
