package import DocSyncFeed

extension FeedRefresher {
    /// Fetches and parses a feed: the document, and how its bytes were got (the bytes themselves go once parsed).
    /// A stored body (fresh, or confirmed by a 304) that does not parse is not trusted again: its cache entry is
    /// dropped and the feed fetched in full (an unconditional GET) once.
    package func fetchDocument(_ location: String, refresh: Bool, documentURL: String) async throws
        -> (source: Source, document: FeedDocument)
    {
        let first = try await fetch(location, refresh: refresh)
        do {
            return (first.source, try FeedParser.parse(bytes: first.bytes, documentURL: documentURL))
        } catch {
            guard first.source == .fresh || first.source == .notModified else { throw error }
            store.drop(url: location)
        }
        let full = try await fetch(location, refresh: true)
        return (full.source, try FeedParser.parse(bytes: full.bytes, documentURL: documentURL))
    }
}
