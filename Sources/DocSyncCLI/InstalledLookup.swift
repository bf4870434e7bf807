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

    /// The docset `name` addresses: the exact name, else one that differs only in case, else for `NAME@VERSION`
    /// the docset `NAME` at that version (``DocsetAddress``).
    static func find(_ name: String, in installed: [InstalledDocset]) -> InstalledDocset? {
        DocsetAddress.resolve(name, in: installed)
    }

    /// The docset `name` addresses; when there is none, `docsync COMMAND: no docset NAME in ROOT (installed: …)` —
    /// or, for `NAME@VERSION` of an installed `NAME`, the versions installed — and exit status 64.
    static func require(
        _ name: String, in installed: [InstalledDocset], root: String, command: String
    ) throws -> InstalledDocset {
        if let docset = find(name, in: installed) { return docset }
        if let problem = DocsetAddress.problem(name, in: installed) {
            printError("docsync \(command): \(problem.escapingControlCharacters)")
        } else {
            printError(
                "docsync \(command): no docset \(name.escapingControlCharacters) in \(root.escapingControlCharacters)"
                    + " (installed: \(names(installed)))")
        }
        throw ExitStatus.usage
    }
}
