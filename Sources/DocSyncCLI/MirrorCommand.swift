import ArgumentParser
import DocSync
import Foundation

/// `docsync mirror publish|bundle|import`: a docset mirror for a fleet (see README "Fleet mirror").
struct MirrorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mirror",
        abstract: "Publish installed docsets as a static tree for other hosts; bundle it; import a bundle offline.",
        discussion: manual,
        subcommands: [MirrorPublishCommand.self, MirrorBundleCommand.self, MirrorImportCommand.self])
}

/// `docsync mirror publish`.
struct MirrorPublishCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "publish",
        abstract: "Write [mirror] dir: kept archives, a Dash feed per docset, docsets.atom, catalogue.json, manifest.",
        discussion: """
            Every sync runs it too when [mirror] is configured. Archives a sync did not keep (docsets installed \
            before [mirror] was added) are downloaded again, checksum enforced; a docset whose archive cannot be had \
            keeps the version published before. Exit status: 0, 3 when some docsets were left out or their archive \
            could not be had, 74 when the tree cannot be written, 78 for a configuration error.

            Licences: Kapeli's Dash docsets may be used only personally or with Dash or Zeal, not redistributed \
            (a public or company mirror) without Kapeli's permission (https://github.com/Kapeli/feeds). Each \
            Kapeli docset published is named in a warning unless [mirror] kapeli_permission = true records that \
            permission. User-contributed and self-built docsets are unaffected.
            """)

    @OptionGroup var configOptions: ConfigOptions

    func run() async throws {
        let config = try configOptions.load()
        guard let mirror = config.mirror else {
            printError("docsync: no [mirror] table in the configuration (mirror.dir, mirror.base_url)")
            throw ExitStatus.configError
        }
        let engine = SyncEngine(configuration: config)
        let report = try await exitingOnIOError({ "docsync: mirror publish: \(TerminalText.safe($0))" }) {
            try await engine.publishMirror()
        }
        for (name, reason) in report.skipped {
            printError("docsync: warning: \(TerminalText.safe(name)) left out: \(TerminalText.safe(reason))")
        }
        for failure in report.failed {
            printError("docsync: \(TerminalText.safe(SyncEngine.mirrorFailure(failure).message))")
        }
        let installed = (try? engine.installedDocsets()) ?? []
        for warning in KapeliLicence.warnings(
            for: installed, names: Set(report.published), permission: mirror.kapeliPermission,
            key: "[mirror] kapeli_permission")
        {
            printError("docsync: warning: \(TerminalText.safe(warning))")
        }
        print(
            "published \(report.published.count) docsets in \(TerminalText.safe(mirror.directory)) "
                + "(\(report.placed) archives added, \(report.deleted) removed)")
        if !report.skipped.isEmpty || !report.failed.isEmpty { throw ExitStatus.partialFailure }
    }
}

/// `docsync mirror bundle FILE`.
struct MirrorBundleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bundle",
        abstract:
            "Write the published tree (manifest, feeds, catalogue, archives) as one tar file for air-gapped hosts.")

    @OptionGroup var configOptions: ConfigOptions

    @Argument(help: "The tar file to write.")
    var file: String

    @Flag(
        help: """
            Also carry every other archive still in the tree (older kept versions, retired ones in their grace \
            period); by default only those the manifest names.
            """)
    var includeRetired = false

    func run() async throws {
        let config = try configOptions.load()
        do {
            let files = try SyncEngine(configuration: config).bundleMirror(to: file, includeRetired: includeRetired)
            print("wrote \(TerminalText.safe(file)) (\(files.count) files)")
        } catch let error as DocSyncConfigurationError {
            printError("docsync: \(error)")
            throw ExitStatus.configError
        } catch {
            printError("docsync: mirror bundle: \(TerminalText.safe("\(error)"))")
            throw ExitStatus.ioError
        }
    }
}

/// `docsync mirror import FILE|DIR`.
struct MirrorImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Install every docset of a mirror bundle (or an unpacked mirror tree) with no network.",
        discussion: """
            Each archive must hash to the manifest's SHA-256. Exit status: 0, 3 when some docsets failed, 65 for \
            a file that is not a docsync mirror bundle, 78 for a configuration error.
            """)

    @OptionGroup var configOptions: ConfigOptions

    @Argument(help: "A bundle written by `docsync mirror bundle`, or a mirror folder.")
    var path: String

    func run() async throws {
        let config = try configOptions.load()
        let events: [SyncEvent]
        do {
            events = try await SyncEngine(configuration: config).importMirror(from: path)
        } catch {
            printError("docsync: mirror import: \(TerminalText.safe("\(error)"))")
            throw ExitStatus.dataError
        }
        var failed = false
        for event in events {
            switch event {
            case .installed(let docset):
                print("installed \(TerminalText.safe(docset.name)) \(TerminalText.safe(docset.version ?? ""))")
            case .unchanged(let name, let version): print("unchanged \(TerminalText.safe(name)) \(version)")
            case .failed(let name, let failure):
                failed = true
                printError("docsync: \(TerminalText.safe(name)): \(TerminalText.safe(failure.message))")
            default: break
            }
        }
        if failed { throw ExitStatus.partialFailure }
    }
}
