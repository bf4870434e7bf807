import ArgumentParser
import DocSync
import DocSyncConfigFile
import Foundation

/// `docsync install`: unpacks an archive safely and makes it `<root>/<NAME>.docset` in one atomic step.
struct InstallCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "install",
        abstract: "Install a docset archive (tgz, tar.bz2/xz/zst, tar, zip, xar) as <root>/<NAME>.docset atomically.",
        discussion: """
            Exit status: 0 when the new version is in place; 65 when the archive is rejected (unsafe entry, \
            unreadable, not a docset); 74 on an I/O error. On any failure the installed version is unchanged.
            """ + "\n\n" + manual)

    @Argument(help: "The archive file (format detected from its content).")
    var archive: String

    @Option(help: "The docset root folder (created if missing).")
    var root: String

    @Option(help: "The docset name: installs <root>/<NAME>.docset.")
    var name: String

    @Option(help: "The version recorded in meta.json.")
    var version: String?

    @Option(help: "The revision recorded in meta.json.")
    var revision: String?

    @Option(help: "The title recorded in meta.json (default: the name).")
    var title: String?

    @Option(help: "Seconds a replaced version is kept for readers before it is deleted.")
    var graceSeconds: Int = 600

    @Option(help: "How the docset keeps its documents: extracted, or tarix (an indexed archive).")
    var layout: InstalledDocset.Layout = .extracted

    @Flag(help: "Keep the versions already installed beside this one (NAME@VERSION); needs --version.")
    var sideBySide = false

    @Flag(help: "Print the installed docset as JSON on standard output.")
    var json = false

    @Flag(inversion: .prefixedNo, help: "Build the text index (default: when a state folder is known).")
    var fullText: Bool?

    @Option(help: "docsync's state folder, where the text index goes (default: the configuration's).")
    var state: String?

    func validate() throws {
        guard ValueSyntax.duration(seconds: Int64(graceSeconds)) != nil else {
            throw ValidationError("--grace-seconds must be between 0 and \(ValueSyntax.maximumDurationSeconds)")
        }
        if sideBySide, version?.isEmpty ?? true {
            throw ValidationError("--side-by-side needs --version (each kept version is named NAME@VERSION)")
        }
    }

    func run() async throws {
        let installer = ArchiveInstall(root: root, gracePeriod: .seconds(max(graceSeconds, 0)))
        let installed: InstalledDocset
        var moved: InstalledDocset?
        do {
            if sideBySide, let version {
                (installed, moved) = try await installer.installSideBySide(
                    archive: archive, name: name, title: title, version: version, revision: revision, layout: layout)
            } else {
                installed = try await installer.install(
                    archive: archive, name: name, title: title, version: version, revision: revision, layout: layout)
            }
        } catch {
            if error.kind == .invalidName || error.kind == .usage { throw ValidationError("\(error)") }
            printError("docsync install: \(archive): \(error)")
            throw error.kind == .rejected ? ExitStatus.dataError : ExitStatus.ioError
        }
        if json {
            print(SchemaJSON.line(installed))
        } else {
            if let moved {
                print("kept \(moved.name) beside it (\(moved.title))".escapingControlCharacters)
            }
            let version = installed.version.map { " \($0)" } ?? ""
            let files = installed.fileCount.map { "\($0) files" } ?? ""
            let store = installed.layout == .tarix ? ", tarix" : ""
            let text =
                "installed \(installed.name)\(version) (\(files), \(installed.sizeOnDisk ?? 0) bytes\(store)) at "
                + installed.path
            print(text.escapingControlCharacters)
        }
        let loader = DocSyncConfigurationLoader.processEnvironment()
        let configured = state ?? loader.locate().flatMap { try? loader.load(file: $0) }?.state
        if fullText ?? (configured != nil) {
            let folder = configured ?? loader.defaults().state
            for warning in await installer.buildTextIndex(installed, stateDirectory: folder) {
                printError("docsync install: \(installed.name.escapingControlCharacters): \(warning)")
            }
        }
        await installer.waitForBackgroundWork()
    }
}

extension InstalledDocset.Layout: ExpressibleByArgument {}
