import ArgumentParser
import DocSync
import DocSyncConfigFile
import DocSyncSupport
import Foundation

/// `docsync fetch`: one resumable, verified download.
struct FetchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch",
        abstract: "Download one file resumably; FILE appears only when it is complete and verified.",
        discussion: """
            Running the same command again after an interruption (network failure, Ctrl-C, kill -9, reboot) \
            resumes from the last durable chunk. Partial state lives in the staging directory, by default \
            .docsync-staging next to FILE. The configuration, when there is one, gives [install] \
            max_archive_size, [network] require_https (HTTPS-First otherwise) and retries, as for sync.
            """ + "\n\n" + manual)

    @OptionGroup var configOptions: ConfigOptions

    @Argument(help: "The URL to download.")
    var url: String

    @Option(name: .customLong("mirror"), help: "Another URL serving the same file (repeatable, tried in order).")
    var alternates: [String] = []

    @Option(name: [.short, .long], help: "Where the finished file goes.")
    var output: String

    @Option(help: "Directory for the partial file and its journal (default: .docsync-staging next to FILE).")
    var staging: String?

    @Option(help: "Expected SHA-256 of the file (64 hex digits).")
    var sha256: String?

    @Option(
        name: .customLong("ca-file"),
        help: "PEM file of the certificate authorities to trust (default: CURL_CA_BUNDLE, else the system's).")
    var caFile: String?

    @Option(help: "Transfers at once: a large file is fetched in verified segments over N connections (1 disables).")
    var connections = 4

    @Option(
        name: .customLong("max-size"),
        help: "Largest file downloaded (\"4G\", \"500M\"; \"0\" no limit; default: [install] max_archive_size).")
    var maxSize: String?

    @Flag(help: "Print one JSON object describing the result on standard output.")
    var json = false

    func validate() throws {
        if let sha256, SHA256.Digest(hex: sha256) == nil {
            throw ValidationError("--sha256 must be 64 hexadecimal digits")
        }
        if let maxSize, ValueSyntax.byteSize(maxSize) == nil {
            throw ValidationError("--max-size must be a size such as 500M, 4G or 0 (no limit), not \(maxSize)")
        }
        if !(1...16).contains(connections) { throw ValidationError("--connections must be between 1 and 16") }
        if output.hasSuffix("/") { throw ValidationError("--output must name a file, not a directory") }
        if let caFile, !FileManager.default.isReadableFile(atPath: caFile) {
            throw ValidationError("--ca-file: cannot read \(caFile)")
        }
    }

    /// The configuration when one is given or found (its archive policy and `[network]` settings apply), else the
    /// documented defaults.
    func archiveConfiguration() throws -> DocSyncConfiguration {
        var config =
            configOptions.config == nil && DocSyncConfigurationLoader.processEnvironment().locate() == nil
            ? DocSyncConfiguration(root: "", staging: "", state: "") : try configOptions.load()
        if let maxSize, let limit = ValueSyntax.byteSize(maxSize) { config.install.maxArchiveSize = limit }
        return config
    }

    func run() async throws {
        let config = try archiveConfiguration()
        let destination = output.hasPrefix("/") ? output : FileManager.default.currentDirectoryPath + "/" + output
        let stagingDirectory = staging.map(Self.absolute) ?? Self.parent(of: destination) + "/.docsync-staging"
        var folders = [("--output", Self.parent(of: destination))]
        if staging != nil { folders.append(("--staging", stagingDirectory)) }
        for (option, folder) in folders {
            do {
                try DirectoryMaker.ensure(folder)  // missing folders are created (0755, never through a symlink)
            } catch {
                printError("docsync fetch: \(option): cannot create \(folder): \(String(cString: strerror(error.code)))")
                throw ExitStatus.ioError
            }
        }
        if staging == nil {
            // docsync's own folder: created, and checked, without following a link planted at its name.
            do {
                _ = try SafeDirectory.open(Self.parent(of: destination)).directory(".docsync-staging", create: true)
            } catch {
                printError("docsync fetch: \(error)")
                throw ExitStatus.ioError
            }
        }
        // [network] options (proxy, rate_limit, min_speed, timeouts, CA), sync's retries, size cap and HTTPS-First /
        // require_https: one implementation, in DocSync
        let fetch = FileFetch(
            urls: [url] + alternates, destination: destination, staging: stagingDirectory, sha256: sha256,
            caFile: caFile, connections: connections)
        let renderer = ProgressRenderer(label: Self.fileName(of: destination))
        let result: FileFetch.Outcome
        do {
            result = try await fetch.run(config) { renderer.update($0) }
        } catch {
            renderer.finish()
            // The configuration key that bounds the failure (fetch's free-space reserve is not the configuration's).
            let hint: String? =
                if error.isTooLarge {
                    "--max-size, [install] max_archive_size"
                } else if error.isInsufficientSpace {
                    nil
                } else {
                    error.configurationHint
                }
            for fault in error.mirrorFaults { printError(Self.line(fault)) }
            printError("docsync fetch: \(error)" + (hint.map { " (\($0))" } ?? ""))
            throw Self.exitCode(for: error)
        }
        renderer.finish()
        if result.overPlainHTTP, sha256 == nil {
            printError(
                "docsync fetch: warning: downloaded over plain http without --sha256 (https failed or was not tried: "
                    + "\(result.url.redactingCredentials.escapingControlCharacters)); "
                    + "[network] require_https = true refuses plain http")
        }
        for fault in result.alternateFaults { printError(Self.line(fault)) }
        if json {
            print(Self.json(result, requested: url))
        }
    }

    /// `docsync fetch: mirror excluded: URL: message (reason)`, credentials redacted, control characters escaped.
    static func line(_ fault: FileFetch.MirrorFault) -> String {
        "docsync fetch: mirror excluded: \(fault.description.redactingCredentials.escapingControlCharacters) "
            + "(\(fault.reason))"
    }

    static func exitCode(for error: FileFetch.Failure) -> ExitCode {
        error.stageClass.map(ErrorExit.code(for:)) ?? ExitStatus.internalError
    }

    static func json(_ result: FileFetch.Outcome, requested: String) -> String {
        (try? DocSyncJSON.line(FetchJSON(result, requested: requested))) ?? "{}"
    }

    static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }

    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    static func fileName(of path: String) -> String {
        path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
    }
}
