/// How one `sync()` run behaves (the CLI's flags).
public struct SyncOptions: Sendable, Equatable {
    /// Ask servers even for feeds still fresh by their caching headers (conditional requests all the same).
    public var refresh = false
    /// Only these docset folder names (empty: all).
    public var only: Set<String> = []
    /// Plan only: no download, install or removal.
    public var dryRun = false
    /// Queue behind a running sync instead of failing.
    public var wait = false
    /// Install exactly what this `docsync.lock` says (feeds and catalogues are not read).
    package var lock: LockFile? = nil
    /// Reinstall docsets whose installed tree no longer matches its manifest (`docsync verify`).
    public var repair = false

    /// Options for one run; the defaults sync everything and fail at once when another sync is running.
    public init(
        refresh: Bool = false, only: Set<String> = [], dryRun: Bool = false, wait: Bool = false, repair: Bool = false
    ) {
        self.repair = repair
        self.refresh = refresh
        self.only = only
        self.dryRun = dryRun
        self.wait = wait
    }
}
