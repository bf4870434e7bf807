extension DocSyncConfiguration {
    /// The `[search]` table.
    public struct Search: Sendable, Equatable {
        /// Build a text index of every installed docset's pages (`full_text`, default on): `search --text`,
        /// `serve`'s `/api/text`, `docsync mcp`'s `search_text`.
        public var fullText = true
        /// Per-docset exceptions to ``fullText`` (`full_text_docsets = { Go = false }`), by docset name.
        public var fullTextDocsets: [String: Bool] = [:]

        /// Whether the docset `name` gets a text index: its exception, else the root's.
        public func fullText(of name: String) -> Bool { fullTextDocsets[name] ?? fullText }

        /// The defaults, as `config/docsync.toml` documents them.
        public init() {}
    }
}
