import ArgumentParser
import DocSync
import DocSyncConfigFile
import Foundation

/// `docsync adopt`: take over the docsets of an existing Zeal folder without downloading anything.
struct AdoptCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "adopt",
        abstract:
            "Take over the docsets an existing Zeal folder holds, matched to the catalogues, without downloading.",
        discussion: """
            Each real NAME.docset folder is matched to a catalogue entry (meta.json name or feed_url, else \
            Info.plist CFBundleName, else the folder name), moved unchanged into .docsync/versions/ with \
            NAME.docset linked to it (one atomic rename), and selected with a [[docset]] table; the next sync \
            updates it like any docset. Folders that match nothing are listed and left alone. Exit status: 0, 3 \
            when some folders could not be matched or adopted, 75 when a sync is running, 78 for a config error.
            """ + "\n\n" + manual)

    @OptionGroup var configOptions: ConfigOptions

    @Option(help: "The Zeal docset folder (default: the config's root).", completion: .directory)
    var root: String?

    @Flag(help: "Only report what would be adopted.")
    var dryRun = false

    @Flag(
        name: .customLong("init"),
        help: "With no configuration file, write the documented one first (root = --root, else Zeal's folder).")
    var initialize = false

    func run() async throws {
        try FirstRun.offer(configOptions, initialize: initialize, root: root)
        let config = try configOptions.load()
        let folder =
            root.map { $0.hasPrefix("/") ? $0 : FileManager.default.currentDirectoryPath + "/" + $0 }
            ?? config.root
        if folder != config.root {
            printError("docsync: note: sync manages \(config.root); adopted docsets in \(folder) stay there")
        }
        let found: [Adoption.Found]
        do {
            found = try Adoption.scan(root: folder)
        } catch {
            printError("docsync: cannot read \(folder): \(error)")
            throw ExitStatus.ioError
        }
        let engine = SyncEngine(configuration: config)
        let shelf = await CatalogShelf.load(engine)
        for failure in shelf.failures { printError("docsync: catalogue \(TerminalText.safe("\(failure)"))") }
        let lock: SyncExclusion?
        do {
            lock = dryRun ? nil : try await SyncExclusion.acquire(stateDirectory: config.state, wait: false)
        } catch {
            printError("docsync: \(error)")
            throw ExitStatus.busy
        }
        defer { withExtendedLifetime(lock) {} }
        var selections: [DocSyncConfiguration.DocsetSelection] = []
        var problems = 0
        for docset in found {
            let label = TerminalText.safe(docset.folder)
            guard let entry = Adoption.match(docset, in: shelf) else {
                let hint = docset.bundleName.map { " (CFBundleName \(TerminalText.safe($0)))" } ?? ""
                print("not matched  \(label).docset\(hint): left as it is")
                problems += 1
                continue
            }
            let version = docset.metaVersion.map { " at \(TerminalText.safe($0))" } ?? " (version unknown)"
            var what = "\(label).docset as \(TerminalText.safe(entry.name)) from \(entry.source.rawValue)\(version)"
            if docset.folder != DocsetName.safe(entry.name) {
                what += " (shown as \(TerminalText.safe(DocsetName.safe(entry.name))).docset from now on)"
            }
            if dryRun {
                print("would adopt  \(what)")
            } else {
                do {
                    _ = try await InstalledDocset.adopt(
                        folder: docset.folder, in: folder, as: DocsetName.safe(entry.name))
                    print("adopted      \(what)")
                } catch {
                    printError("docsync: \(label).docset: \(error)")
                    problems += 1
                    continue
                }
            }
            selections.append(.init(name: entry.name))
        }
        if !selections.isEmpty {
            let file = try configOptions.file()
            let original = try ConfigFileEdit.read(file)
            try ConfigFileEdit.apply(
                ConfigEditor.adding(selections, to: original), original: original, file: file, dryRun: dryRun)
        }
        if found.isEmpty { print("No docset folder to adopt in \(folder).") }
        if problems > 0 { throw ExitStatus.partialFailure }
    }
}
