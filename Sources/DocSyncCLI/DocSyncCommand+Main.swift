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
        OpenSSLStartup.skipErrorStrings()  // before libcurl initialises OpenSSL (#39: ~560 KiB)
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            await ServeHost.$current.withValue(serveHost) { await runAsync() }
            done.signal()
        }
        done.wait()
        Glibc.exit(0)
    }

    /// Parses the command line and runs the chosen subcommand asynchronously. `DocSyncCommand.main()` from a
    /// `main.swift` resolves to ParsableCommand's synchronous `main`, which refuses async subcommands.
    package static func runAsync() async {
        var command: any ParsableCommand
        do {
            command = try parseAsRoot()
        } catch {
            exit(withError: error)
        }
        do {
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            // Usage errors and deliberate exit codes are ArgumentParser's; everything else is mapped in one place.
            exit(withError: ErrorExit.isArgumentParsers(error) ? error : ErrorExit.report(error))
        }
    }
}
