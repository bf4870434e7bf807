import ArgumentParser
import DocSync
import Foundation

/// `docsync cat NAME PAGE`: one document of an installed docset on standard output, from either layout.
struct CatCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cat",
        abstract: "Write one document of an installed docset to standard output (extracted or tarix layout).",
        discussion: """
            PAGE is relative to NAME.docset/Contents/Resources/Documents, as `docsync entries` reports it \
            (`docsync cat Go pkg/net/http/index.html | w3m -T text/html`). From a tarix docset the page is read out \
            of its indexed archive: one index lookup, one bounded inflate. Exit status: 0 when written; 64 for an \
            unknown docset, a page the docset does not have, or a page path that is not one; 74 on an I/O error.
            """ + "\n\n" + manual)

    @OptionGroup var configOptions: ConfigOptions
    @OptionGroup var rootOptions: RootOptions

    @Argument(help: "The docset name (folder name without .docset, case-insensitive).")
    var name: String

    @Argument(help: "The page, relative to the docset's documents folder (no fragment).")
    var page: String

    @Flag(help: "Write the page's visible text instead of its HTML.")
    var text = false

    func run() async throws {
        let config = try configOptions.load(rootOptions)
        let installed = try InstalledLookup.all(config, command: "cat")
        let docset = try InstalledLookup.require(name, in: installed, root: config.root, command: "cat")
        let bytes: [UInt8]
        do {
            if text {
                let page = try await docset.text(of: page)
                let title = page.title.isEmpty ? "" : page.title.escapingControlCharacters + "\n\n"
                let lines = page.text.split(separator: "\n").map { String($0).escapingControlCharacters }
                bytes = Array((title + lines.joined(separator: "\n") + "\n").utf8)
            } else {
                bytes = try await docset.contents(of: page)
            }
        } catch {
            printError("docsync cat: \(error.description.escapingControlCharacters)")
            switch error {
            case .notFound, .invalidPath, .outsideDocset, .notRegularFile: throw ExitStatus.usage
            default: throw ExitStatus.ioError
            }
        }
        let output = FileHandle.standardOutput
        do { try output.write(contentsOf: Data(bytes)) } catch { throw ExitStatus.ioError }
    }
}
