import ArgumentParser
import DocSync
import Foundation

/// `docsync lock`: write `docsync.lock` for what is installed, so other machines can `sync --locked` to it.
struct LockCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lock",
        abstract:
            "Write docsync.lock (next to the config): each installed docset's version, archive URLs, SHA-256, size.",
        discussion: """
            Run it after a sync. Docsets docsync did not install (or adopted and not updated yet) have no checksum \
            and are left out, with a warning. Exit status: 0, 3 when some docsets were left out, 74 when the \
            file cannot be written, 78 for a configuration error.
            """ + "\n\n" + manual)

    @OptionGroup var configOptions: ConfigOptions

    @Flag(help: "Print the lock on standard output instead of writing the file.")
    var stdout = false

    func run() async throws {
        let config = try configOptions.load()
        let file = try configOptions.file()
        let made: (lock: LockFile, skipped: [String])
        do {
            made = try SyncEngine(configuration: config).makeLock()
        } catch {
            printError("docsync: cannot read \(config.root): \(error)")
            throw ExitStatus.ioError
        }
        for name in made.skipped {
            printError("docsync: warning: \(TerminalText.safe(name)) left out (no archive checksum: sync it first)")
        }
        if stdout {
            print(String(decoding: made.lock.encoded(), as: UTF8.self), terminator: "")
        } else {
            let path = LockFile.path(configFile: file)
            do { try made.lock.save(path) } catch {
                printError("docsync: cannot write \(path): \(error)")
                throw ExitStatus.ioError
            }
            print("Wrote \(path) (\(made.lock.docsets.count) docsets).")
        }
        if !made.skipped.isEmpty { throw ExitStatus.partialFailure }
    }
}

extension LockFile {
    /// The lock next to the config, or exit status 78 with the reason.
    static func loadForCLI(configFile: String) throws -> LockFile {
        do { return try LockFile.load(LockFile.path(configFile: configFile)) } catch {
            printError("docsync: \(error)")
            throw ExitStatus.configError
        }
    }
}
