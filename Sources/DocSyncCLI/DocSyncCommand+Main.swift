import ArgumentParser
import CDocSyncStartup
import Dispatch
import DocSyncSupport

#if canImport(Glibc)
    import Glibc
#endif

extension DocSyncCommand {
    /// Parses the command line, runs the chosen subcommand on Swift's concurrency pool while the main thread waits,
    /// and exits with its status. (An `async` main would park the main thread in `dispatch_main`, whose
    /// `pthread_exit` unwinds the stack through the unwind tables: resident memory spent for nothing.)
    package static func runMain() -> Never {
        runMain(serveHost: nil)
    }

    /// `runMain` with the HTTP front of `serveHost` (`docsync-serve`'s `main`; nil in `docsync`, whose `serve` and
    /// `daemon` with `[serve]` exec `docsync-serve`).
    package static func runMain(serveHost: ServeHost?) -> Never {
        ds_startup_limit_arenas()  // before any thread allocates (#39: a fetch's peak in every plan)
        OpenSSLStartup.skipErrorStrings()  // when libcrypto loads (on first use; #39: ~560 KiB)
        // `changes --json` as a backend polls it: its few options read without building ArgumentParser's tree.
        if let arguments = ChangesJSONArguments.parse(CommandLine.arguments.dropFirst()) {
            do {
                try arguments.run()
                Glibc.exit(0)
            } catch {
                exitReporting(error)
            }
        }
        // Parsed on the main thread: `--version`, `--help` and usage errors, and a `MainThreadCommand`, end here
        // without starting the concurrency pool's threads.
        let parsed = ParsedCommand(parse())
        if let command = parsed.command as? any MainThreadCommand {
            runOnMainThread(command)
        }
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            await ServeHost.$current.withValue(serveHost) { await run(parsed.command) }
            done.signal()
        }
        done.wait()
        Glibc.exit(0)
    }

    /// Runs `command` on the main thread and exits when its options allow that; returns when they do not.
    private static func runOnMainThread(_ command: any MainThreadCommand) {
        do {
            if try command.runOnMainThread() { Glibc.exit(0) }
        } catch {
            exitReporting(error)
        }
    }

    /// Parses the command line and runs the chosen subcommand asynchronously. `DocSyncCommand.main()` from a
    /// `main.swift` resolves to ParsableCommand's synchronous `main`, which refuses async subcommands.
    package static func runAsync() async {
        await run(parse())
    }

    /// The command the command line chooses; exits on `--version`, `--help` or a usage error.
    private static func parse() -> any ParsableCommand {
        do {
            return try parseAsRoot()
        } catch {
            exit(withError: error)
        }
    }

    /// Runs a parsed command; exits when it fails.
    private static func run(_ command: any ParsableCommand) async {
        var command = command
        do {
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            exitReporting(error)
        }
    }

    /// Usage errors and deliberate exit codes are ArgumentParser's; everything else is mapped in one place.
    private static func exitReporting(_ error: any Error) -> Never {
        exit(withError: ErrorExit.isArgumentParsers(error) ? error : ErrorExit.report(error))
    }
}

/// A command parsed on the main thread, handed to the task that runs it (the main thread only waits meanwhile).
private final class ParsedCommand: @unchecked Sendable {
    let command: any ParsableCommand

    init(_ command: any ParsableCommand) { self.command = command }
}
