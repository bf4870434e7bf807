import DocSync

/// How the reading commands (`entries`, `cat`) find the docsets they were asked for.
enum InstalledLookup {
    /// Every docset installed in `config`'s root; when the root cannot be read, `docsync COMMAND: cannot read
    /// ROOT: …` on standard error and exit status 74.
    static func all(_ config: DocSyncConfiguration, command: String) throws -> [InstalledDocset] {
        do {
            return try SyncEngine(configuration: config).installedDocsets()
        } catch {
            printError(
                "docsync \(command): cannot read \(config.root.escapingControlCharacters): "
                    + "\(String(describing: error).escapingControlCharacters)")
            throw ExitStatus.ioError
        }
    }

    /// The installed docsets' names for an error message, control characters escaped ("none" when there is none).
    static func names(_ installed: [InstalledDocset]) -> String {
        installed.isEmpty ? "none" : installed.map(\.name).joined(separator: ", ").escapingControlCharacters
    }

    /// The docset called `name`: the exact name, else one that differs only in case.
    static func find(_ name: String, in installed: [InstalledDocset]) -> InstalledDocset? {
        installed.first { $0.name == name } ?? installed.first { $0.name.lowercased() == name.lowercased() }
    }
}
