import ArgumentParser
import DocSync
import DocSyncConfigFile

/// `--config`, shared by every command that reads the configuration.
struct ConfigOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Configuration file (TOML).",
            discussion: "Default: $DOCSYNC_CONFIG, then $XDG_CONFIG_HOME/docsync/docsync.toml, "
                + "$XDG_CONFIG_DIRS/docsync/docsync.toml, /etc/docsync/docsync.toml."),
        completion: .file(extensions: ["toml"]))
    var config: String?

    /// Loads the configuration; a missing or bad file is a clear message and exit status 78 (EX_CONFIG).
    func load() throws -> DocSyncConfiguration { try Self.load(file: config) }

    /// `load()` with `--config`'s value (nil: not given).
    static func load(file config: String?) throws -> DocSyncConfiguration {
        let loader = DocSyncConfigurationLoader.processEnvironment()
        guard let file = config ?? loader.locate() else {
            printError(
                "docsync: no configuration file found; looked in:\n  "
                    + loader.searchPath().joined(separator: "\n  ")
                    + "\n(`docsync init` writes the documented one, or pass --config FILE)")
            throw ExitStatus.configError
        }
        do {
            return try loader.load(file: file)
        } catch {
            printError("docsync: \(error)")
            throw ExitStatus.configError
        }
    }
}
