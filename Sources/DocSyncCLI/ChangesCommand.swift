import ArgumentParser
import DocSync
import DocSyncSupport
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// `docsync changes`: the root's change log, for indexing backends in other languages.
struct ChangesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "changes",
        abstract: "List the changes to the installed docsets since a cursor (read-only; --follow waits for more).",
        discussion: """
            Every command that changes the root (sync, install, remove, relayout, adopt, mirror import) records one \
            change per docset it installs, updates or removes, in <root>/.docsync/changes/log, in the same durable \
            step as the change: after a crash the log's last change for a docset names the version its NAME.docset \
            shows. Installing the same version with the same bytes again, or a repair, records nothing; the same \
            version with other bytes is "updated".

            Prints the changes after --since CURSOR (default: every change the log keeps), oldest first: CURSOR, \
            KIND, DOCSET, FROM and TO (publisher versions, "-" when none) tab-separated; with --json one JSON object \
            per line: cursor, docset, kind ("installed", "updated", "removed"), from, to (absent when none), \
            from_version_id, to_version_id (the version folders under .docsync/versions/, for `docsync lease`), at \
            (ISO 8601) and schema. A cursor is opaque: store the last one you processed and pass it back. --cursor \
            prints the cursor after the last change (a backend that has just scanned everything starts from it). \
            --follow keeps waiting for new changes (inotify: within milliseconds of each change) until interrupted.

            Works for a user who may only read the root. The log keeps changes for [changes] keep (default 365d). \
            Exit status: 0; 65 when the cursor is unknown (forged, another root's) or expired (older than what the \
            log keeps) — rescan every docset, then follow from `docsync changes --cursor`; 74 when the log cannot \
            be read.
            """)

    @OptionGroup var configOptions: ConfigOptions
    @OptionGroup var rootOptions: RootOptions

    @Option(help: "Print the changes after this cursor (default: every change the log keeps).")
    var since: String?

    @Flag(help: "Keep waiting for new changes, printing each as it is made.")
    var follow = false

    @Flag(help: "Print only the cursor after the last change (nothing when no change is recorded).")
    var cursor = false

    @Flag(help: "JSON Lines on standard output.")
    var json = false

    func run() async throws {
        let engine = SyncEngine(configuration: try configOptions.load(rootOptions))
        do {
            if cursor {
                if let current = try await engine.changeCursor() { print(current) }
                return
            }
            if json && !follow {
                let since = since
                try await WorkerThread.run(name: "docsync-changes") { () throws(ChangeLogError) in
                    try Self.writeJSON(engine, since: since)
                }
                return
            }
            if !follow {
                // Each change written as its line is read, on the reading thread (the lock is never contended).
                let shared = SharedOutput()
                shared.output.withLock { $0.growPipe() }
                defer { shared.output.withLock { $0.flush() } }
                try await engine.forEachChange(since: since) { change in
                    shared.output.withLock { output in
                        output.write { Self.append(change, json: false, to: &$0) }
                        return !output.failed
                    }
                }
                return
            }
            let output = BufferedOutput()
            defer { output.flush() }
            var iterator = engine.follow(since: since).makeAsyncIterator()
            while let change = try await iterator.next() {
                output.write { Self.append(change, json: json, to: &$0) }
                output.flush()
                if output.failed { return }
            }
        } catch let error as ChangeLogError {
            throw Self.report(error)
        }
    }

    /// `--json` without `--follow`: each line made from the log's bytes (`SyncEngine.writeChangesJSON`), written
    /// in 64 KiB chunks. Blocks the calling thread.
    static func writeJSON(_ engine: SyncEngine, since: String?) throws(ChangeLogError) {
        let output = BufferedOutput()
        output.growPipe()
        try engine.writeChangesJSON(since: since) { output.write(chunk: $0) }
    }

    /// Prints `error` and gives the exit status it ends the command with.
    static func report(_ error: ChangeLogError) -> ExitCode {
        printError("docsync changes: \(error.message)")
        return error.kind == .unreadable ? ExitStatus.ioError : ExitStatus.dataError
    }

    /// One line: tab-separated text, or one JSON object (``ChangeJSONLines``).
    static func append(_ change: DocsetChange, json: Bool, to out: inout [UInt8]) {
        guard json else {
            let fields = [
                change.cursor, change.kind.rawValue, change.docset, change.from ?? "-", change.to ?? "-",
            ]
            out.append(contentsOf: fields.map(\.escapingControlCharacters).joined(separator: "\t").utf8)
            out.append(UInt8(ascii: "\n"))
            return
        }
        ChangeJSONLines.append(change, to: &out)
    }
}

extension ChangesCommand: MainThreadCommand {
    /// `--json` without `--follow` or `--cursor` runs on the main thread: it reads the log and writes, and its
    /// start-up is most of what `changes --since` costs (no concurrency pool, no thread started).
    func runOnMainThread() throws -> Bool {
        guard json && !follow && !cursor else { return false }
        try Self.writeJSON(configuration: try configOptions.load(rootOptions), since: since)
        return true
    }

    /// `--json` without `--follow` or `--cursor`, on the calling thread; throws the exit status it ends with.
    static func writeJSON(configuration: DocSyncConfiguration, since: String?) throws {
        do {
            try writeJSON(SyncEngine(configuration: configuration), since: since)
        } catch {
            throw report(error)
        }
    }
}

/// A `BufferedOutput` the reading thread writes to (`Mutex` where nobody waits: one thread writes at a time).
private final class SharedOutput: Sendable {
    let output = Mutex(BufferedOutput())
}
