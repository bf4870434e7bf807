import ArgumentParser
import DocSync
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
            """)

    @OptionGroup var configOptions: ConfigOptions
    @OptionGroup var rootOptions: RootOptions

    @Argument(help: "Docset names (folder names without .docset, case-insensitive) or @GROUP.")
    var names: [String]

    @Flag(help: "JSON Lines on standard output.")
    var json = false

    func run() async throws {
        let config = try configOptions.load(rootOptions)
        let wanted = try config.expandDocsetSelectors(names, command: "entries")
        let installed: [InstalledDocset]
        do {
            installed = try SyncEngine(configuration: config).installedDocsets()
        } catch {
            printError("docsync entries: cannot read \(config.root): \(error)")
            throw ExitStatus.ioError
        }
        var docsets: [InstalledDocset] = []
        for name in wanted {
            guard
                let docset = installed.first(where: { $0.name == name })
                    ?? installed.first(where: { $0.name.lowercased() == name.lowercased() })
            else {
                printError(
                    "docsync entries: no docset \(name.escapingControlCharacters) in \(config.root.escapingControlCharacters)"
                        + " (installed: \(installed.map(\.name).joined(separator: ", ").escapingControlCharacters))")
                throw ExitStatus.usage
            }
            docsets.append(docset)
        }
        let output = BufferedOutput()
        defer { output.flush() }
        for docset in docsets {
            do {
                if json {
                    for try await entry in docset.entries() {
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

    /// ``json(_:)``'s record appended as bytes (the way `entries --json` writes millions of them).
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

/// JSON string literals, written by hand for speed (entries of a large docset are millions of lines).
enum JSONText {
    static func appendString(_ text: String, to out: inout String) {
        out += "\""
        var plain = true
        for byte in text.utf8 where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
            plain = false
            break
        }
        if plain {
            out += text
        } else {
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case "\r": out += "\\r"
                case "\t": out += "\\t"
                case let c where c.value < 0x20:
                    let hex = String(c.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                default: out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }

    /// The `String` version's escapes, appended as bytes (no intermediate `String`).
    static func appendString(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        if text.utf8.withContiguousStorageIfAvailable({ appendEscaped($0, to: &out) }) == nil {
            Array(text.utf8).withUnsafeBufferPointer { appendEscaped($0, to: &out) }
        }
        out.append(UInt8(ascii: "\""))
    }

    private static let hexDigits: StaticString = "0123456789abcdef"

    /// How many bytes at the start of `bytes` need no escape (none is below 0x20, `"` or `\\`): eight at a time.
    static func plainPrefix(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        let count = bytes.count
        let ones: UInt64 = 0x0101_0101_0101_0101
        var i = 0
        while i + 8 <= count {
            let word = UnsafeRawPointer(base).loadUnaligned(fromByteOffset: i, as: UInt64.self)
            let quote = word ^ (ones &* 0x22)
            let backslash = word ^ (ones &* 0x5C)
            let control = (word &- ones &* 0x20) & ~word  // a byte below 0x20 (exact for any bound up to 0x80)
            let special = control | ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash)
            if special & (ones &* 0x80) != 0 { break }
            i += 8
        }
        while i < count {
            let byte = base[i]
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { break }
            i += 1
        }
        return i
    }

    /// `bytes` (valid UTF-8) with `"`, `\\` and control characters escaped.
    private static func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        let plain = plainPrefix(bytes)
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[..<plain]))
        for byte in bytes[plain...] {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): out.append(contentsOf: #"\\"#.utf8)
            case UInt8(ascii: "\n"): out.append(contentsOf: #"\n"#.utf8)
            case UInt8(ascii: "\r"): out.append(contentsOf: #"\r"#.utf8)
            case UInt8(ascii: "\t"): out.append(contentsOf: #"\t"#.utf8)
            case ..<0x20:
                out.append(contentsOf: #"\u00"#.utf8)
                out.append(hexDigits.utf8Start[Int(byte >> 4)])
                out.append(hexDigits.utf8Start[Int(byte & 15)])
            default: out.append(byte)
            }
        }
    }
}
