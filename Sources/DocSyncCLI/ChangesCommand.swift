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
            if !follow {
                // Each change written as its line is read, on the reading thread (the lock is never contended).
                let shared = SharedOutput()
                shared.output.withLock { $0.growPipe() }
                defer { shared.output.withLock { $0.flush() } }
                let json = json
                try await engine.forEachChange(since: since) { change in
                    shared.output.withLock { output in
                        output.write { Self.append(change, json: json, to: &$0) }
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
            printError("docsync changes: \(error.message)")
            throw error.kind == .unreadable ? ExitStatus.ioError : ExitStatus.dataError
        }
    }

    /// The JSON object's fixed parts, made once (keys sorted).
    private static let atKey = Array(#"{"at":""#.utf8)
    private static let cursorKey = Array(#"","cursor":"#.utf8)
    private static let docsetKey = Array(#","docset":"#.utf8)
    private static let fromKey = Array(#","from":"#.utf8)
    private static let fromVersionIDKey = Array(#","from_version_id":"#.utf8)
    private static let kindMembers = DocsetChange.Kind.allCases.map {
        Array(#","kind":"\#($0.rawValue)","schema":\#(DocSyncJSON.schema)"#.utf8)
    }
    private static let toKey = Array(#","to":"#.utf8)
    private static let toVersionIDKey = Array(#","to_version_id":"#.utf8)
    private static let end = Array("}\n".utf8)

    /// One line: tab-separated text, or one JSON object (keys sorted), its fixed parts copied whole and each text
    /// field copied as it is unless it needs an escape.
    static func append(_ change: DocsetChange, json: Bool, to out: inout [UInt8]) {
        guard json else {
            let fields = [
                change.cursor, change.kind.rawValue, change.docset, change.from ?? "-", change.to ?? "-",
            ]
            out.append(contentsOf: fields.map(\.escapingControlCharacters).joined(separator: "\t").utf8)
            out.append(UInt8(ascii: "\n"))
            return
        }
        func member(_ key: [UInt8], _ value: String?) {
            guard let value else { return }
            out.append(contentsOf: key)
            var text = value
            let plain = text.withUTF8 { bytes in
                guard JSONText.plainPrefix(bytes) == bytes.count else { return false }
                out.append(UInt8(ascii: "\""))
                out.append(contentsOf: bytes)
                out.append(UInt8(ascii: "\""))
                return true
            }
            if !plain { JSONText.appendString(value, to: &out) }
        }
        out.append(contentsOf: atKey)
        appendDate(change.at, to: &out)
        member(cursorKey, change.cursor)
        member(docsetKey, change.docset)
        member(fromKey, change.from)
        member(fromVersionIDKey, change.fromVersionID)
        switch change.kind {
        case .installed: out.append(contentsOf: kindMembers[0])
        case .updated: out.append(contentsOf: kindMembers[1])
        case .removed: out.append(contentsOf: kindMembers[2])
        }
        member(toKey, change.to)
        member(toVersionIDKey, change.toVersionID)
        out.append(contentsOf: end)
    }

    /// `2026-11-23T15:00:00Z` (whole seconds, UTC), as ``DocSyncJSON`` writes dates, appended as bytes (no `String`
    /// per field, no libc call: `docsync changes --json` writes 100k of them). The proleptic Gregorian calendar's
    /// date from a day number (H. Hinnant's `civil_from_days`).
    static func appendDate(_ date: Date, to out: inout [UInt8]) {
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153  // March = 0
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { text in
            func digits(_ value: Int64, at start: Int, _ count: Int) {
                var rest = value
                for index in stride(from: start + count - 1, through: start, by: -1) {
                    text[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
                    rest /= 10
                }
            }
            digits(year, at: 0, 4)
            text[4] = UInt8(ascii: "-")
            digits(month, at: 5, 2)
            text[7] = UInt8(ascii: "-")
            digits(day, at: 8, 2)
            text[10] = UInt8(ascii: "T")
            digits(secondOfDay / 3_600, at: 11, 2)
            text[13] = UInt8(ascii: ":")
            digits(secondOfDay / 60 % 60, at: 14, 2)
            text[16] = UInt8(ascii: ":")
            digits(secondOfDay % 60, at: 17, 2)
            text[19] = UInt8(ascii: "Z")
            out.append(contentsOf: UnsafeBufferPointer(text))
        }
    }
}

/// A `BufferedOutput` the reading thread writes to (`Mutex` where nobody waits: one thread writes at a time).
private final class SharedOutput: Sendable {
    let output = Mutex(BufferedOutput())
}
