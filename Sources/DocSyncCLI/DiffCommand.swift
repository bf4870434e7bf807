import ArgumentParser
import DocSync
import DocSyncSupport

/// `docsync diff NAME`: what changed between two versions of a docset, for indexing backends in other languages.
struct DiffCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "List the pages and index entries that differ between two versions of a docset (read-only).",
        discussion: manual)

    @OptionGroup var configOptions: ConfigOptions
    @OptionGroup var rootOptions: RootOptions

    @Argument(help: "The docset's name (its folder name without .docset), as `docsync changes` prints it.")
    var name: String

    @Option(help: "The older version: a version or version ID the change log names (default: the one replaced last).")
    var from: String?

    @Option(help: "The newer version (default: the one installed now).")
    var to: String?

    @Flag(help: "JSON Lines on standard output.")
    var json = false

    func run() async throws {
        let engine = SyncEngine(configuration: try configOptions.load(rootOptions))
        let diff: DocsetDiff
        do {
            diff = try await engine.diff(name, from: from, to: to)
        } catch {
            printError("docsync diff: \(error.message)")
            switch error.kind {
            case .noRecord: throw ExitStatus.dataError
            case .unreadable: throw ExitStatus.ioError
            default: throw ExitStatus.usage
            }
        }
        let output = BufferedOutput()
        defer { output.flush() }
        if !json {
            func side(_ version: DocsetDiff.Version?) -> String {
                guard let version else { return "nothing" }
                return "\(version.version.isEmpty ? "-" : version.version) (\(version.versionID))"
            }
            output.write("\(diff.docset): \(side(diff.from)) -> \(side(diff.to))".escapingControlCharacters + "\n")
        }
        for page in diff.pages {
            output.write { Self.append(page, json: json, to: &$0) }
            if output.failed { return }
        }
        for entry in diff.entries {
            output.write { Self.append(entry, json: json, to: &$0) }
            if output.failed { return }
        }
        if !json {
            let count = { (change: DocsetDiff.Change) in diff.pages.filter { $0.change == change }.count }
            let added = diff.entries.filter { $0.change == .added }.count
            output.write(
                "\(diff.pages.count) pages differ (\(count(.added)) added, \(count(.removed)) removed, "
                    + "\(count(.modified)) modified); \(added) entries added, \(diff.entries.count - added) removed\n")
        }
    }

    /// `{"page":P,"change":C}`, or `C<TAB>P` (C: `A`, `D` or `M`).
    static func append(_ page: DocsetDiff.Page, json: Bool, to out: inout [UInt8]) {
        guard json else {
            let letter = page.change == .added ? "A" : page.change == .removed ? "D" : "M"
            out.append(contentsOf: "\(letter)\t\(page.page.escapingControlCharacters)\n".utf8)
            return
        }
        out.append(contentsOf: "{\"page\":".utf8)
        JSONText.appendString(page.page, to: &out)
        out.append(contentsOf: ",\"change\":\"\(page.change.rawValue)\"}\n".utf8)
    }

    /// `{"entry":{"name","type","raw_type","page","fragment"},"change":C}`, or `+`/`-`, name, type, page#fragment
    /// tab-separated.
    static func append(_ entry: DocsetDiff.Entry, json: Bool, to out: inout [UInt8]) {
        guard json else {
            let page = entry.page + (entry.fragment.map { "#\($0)" } ?? "")
            let fields = [entry.change == .added ? "+" : "-", entry.name, entry.type, page]
            out.append(contentsOf: fields.map(\.escapingControlCharacters).joined(separator: "\t").utf8)
            out.append(UInt8(ascii: "\n"))
            return
        }
        out.append(contentsOf: "{\"entry\":{\"name\":".utf8)
        JSONText.appendString(entry.name, to: &out)
        out.append(contentsOf: ",\"type\":".utf8)
        JSONText.appendString(entry.type, to: &out)
        out.append(contentsOf: ",\"raw_type\":".utf8)
        JSONText.appendString(entry.rawType, to: &out)
        out.append(contentsOf: ",\"page\":".utf8)
        JSONText.appendString(entry.page, to: &out)
        out.append(contentsOf: ",\"fragment\":".utf8)
        if let fragment = entry.fragment {
            JSONText.appendString(fragment, to: &out)
        } else {
            out.append(contentsOf: "null".utf8)
        }
        out.append(contentsOf: "},\"change\":\"\(entry.change.rawValue)\"}\n".utf8)
    }
}
