extension DocSyncConfiguration {
    /// `[mirror]`: publish what this host installed as a static tree for a fleet (see `docsync mirror`).
    public struct Mirror: Sendable, Equatable {
        /// The folder a web server serves (archives, feeds, catalogue, manifest).
        public var directory: String
        /// The URL the folder is served at; documents name archives under it.
        public var baseURL: String
        /// Versions of each docset a feed names (the newest and `keep - 1` older ones).
        public var keep = 2
        /// How long an archive no document names any more stays, for clients mid-download.
        public var gracePeriod: Duration = .seconds(3600)
        /// `kapeli_permission`: the operator has Kapeli's permission to redistribute its docsets, so
        /// `mirror publish` does not warn about them (``KapeliLicence``).
        public var kapeliPermission = false

        /// A mirror published into `directory` and served at `baseURL` (the other settings at their defaults).
        public init(directory: String, baseURL: String) {
            self.directory = directory
            self.baseURL = baseURL
        }
    }
}
