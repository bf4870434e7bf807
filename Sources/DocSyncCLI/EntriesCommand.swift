import ArgumentParser
import DocSync
import DocSyncSupport
import Foundation

/// `docsync entries NAME`: every entry of one installed docset, streamed, for backends in other languages.
struct EntriesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "entries",
        abstract: "List every entry of an installed docset (read-only, streamed).",
        discussion: """
            Both index formats (Dash's searchIndex, Apple's Core Data). Prints NAME, TYPE and the URL to open per \
            line (tab-separated, control characters escaped), or with --json one JSON object per line: name, type \
            (normalised), raw_type, page (relative to NAME.docset/Contents/Resources/Documents), fragment (null when \
            none) and url. Exit status: 0 when every entry was listed; 64 for an unknown docset or group; 74 when \
            the index cannot be read.
            """ + "\n\n" + manual)

    @OptionGroup var configOptions: ConfigOptions
    @OptionGroup var rootOptions: RootOptions

    @Argument(help: "Docset names (folder names without .docset, case-insensitive) or @GROUP.")
    var names: [String]

    @Flag(help: "JSON Lines on standard output.")
    var json = false

    func run() async throws {
        let config = try configOptions.load(rootOptions)
        let wanted = try config.expandDocsetSelectors(names, command: "entries")
        let installed = try InstalledLookup.all(config, command: "entries")
        var docsets: [InstalledDocset] = []
        for name in wanted {
            docsets.append(try InstalledLookup.require(name, in: installed, root: config.root, command: "entries"))
        }
        let output = BufferedOutput()
        defer { output.flush() }
        for docset in docsets {
            do {
                if json {
                    // The entries' bytes, written without a `String` per field (the same text as appendJSON).
                    var entries = docset.entries().makeAsyncIterator()
                    while let entry = try await entries.nextBytes() {
                        output.write { Self.appendJSON(entry, to: &$0) }
                        if output.failed { return }  // the reader went away (a closed pipe)
                    }
                } else {
                    for try await entry in docset.entries() {
                        output.write(Self.text(entry))
                        if output.failed { return }
                    }
                }
            } catch {
                output.flush()
                printError("docsync entries: \(error.description.escapingControlCharacters)")
                throw ExitStatus.ioError
            }
        }
    }

    static func text(_ entry: DocsetEntry) -> String {
        "\(entry.name.escapingControlCharacters)\t\(entry.type.escapingControlCharacters)\t\(entry.urlString)\n"
    }

    /// One JSON Lines record, keys sorted: fragment, name, page, raw_type, type, url.
    static func json(_ entry: DocsetEntry) -> String {
        var line: [UInt8] = []
        appendJSON(entry, to: &line)
        return String(decoding: line, as: UTF8.self)
    }

    /// ``json(_:)``'s record of the entry `entry` holds the bytes of, appended (the way `entries --json` writes
    /// millions of them: no `String` per field; a field needing no escape is copied as it is).
    static func appendJSON(_ entry: EntryBytes, to out: inout [UInt8]) {
        func append(_ text: StaticString) {
            out.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        }
        func string(_ bytes: UnsafeBufferPointer<UInt8>) {
            if JSONText.plainPrefix(bytes) == bytes.count {
                out.append(UInt8(ascii: "\""))
                out.append(contentsOf: bytes)
                out.append(UInt8(ascii: "\""))
            } else {
                JSONText.appendString(String(decoding: bytes, as: UTF8.self), to: &out)
            }
        }
        if let fragment = entry.fragment {
            append(#"{"fragment":"#)
            string(fragment)
            append(#","name":"#)
        } else {
            append(#"{"fragment":null,"name":"#)
        }
        string(entry.name)
        append(#","page":"#)
        string(entry.page)
        append(#","raw_type":"#)
        JSONText.appendString(entry.rawType, to: &out)
        append(#","type":"#)
        JSONText.appendString(entry.type, to: &out)
        append(#","url":"#)
        string(entry.url)
        append("}\n")
    }

    /// ``json(_:)``'s record appended as bytes.
    static func appendJSON(_ entry: DocsetEntry, to out: inout [UInt8]) {
        func append(_ text: StaticString) {
            out.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        }
        if let fragment = entry.fragment {
            append(#"{"fragment":"#)
            JSONText.appendString(fragment, to: &out)
            append(#","name":"#)
        } else {
            append(#"{"fragment":null,"name":"#)
        }
        JSONText.appendString(entry.name, to: &out)
        append(#","page":"#)
        JSONText.appendString(entry.page, to: &out)
        append(#","raw_type":"#)
        JSONText.appendString(entry.rawType, to: &out)
        append(#","type":"#)
        JSONText.appendString(entry.type, to: &out)
        append(#","url":"#)
        JSONText.appendString(entry.urlString, to: &out)
        append("}\n")
    }
}
