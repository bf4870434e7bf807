internal import DocSyncFeed
internal import DocSyncSupport

/// Builds one installed docset's text index (`FullTextWriter`): every page read (`FullTextPages`), its visible text
/// extracted (`VisibleTextReader`: bounded memory and time on hostile HTML) and its `pairs` tokens made
/// (`TextPairTokens`) on a thread of its own (`ParsedPages`), and written to the index on the caller's. A page that
/// cannot be read or is too large is skipped and named in the outcome; the rest is indexed.
enum FullTextIndexing {
    struct Outcome: Sendable {
        var pages = 0
        var bytes: Int64 = 0
        /// Pages left out, with why (at most the first 20 are kept; `skippedCount` counts them all).
        var skipped: [(page: String, reason: String)] = []
        var skippedCount = 0
        /// Pages whose text was cut at the limit.
        var truncated = 0

        /// A warning naming the skipped pages, or nil when none was.
        var warning: String? {
            guard skippedCount > 0 else { return nil }
            let named = skipped.prefix(5).map { "\($0.page.escapingControlCharacters) (\($0.reason))" }
            let more = skippedCount > named.count ? ", and \(skippedCount - named.count) more" : ""
            return "text index: \(skippedCount) page\(skippedCount == 1 ? "" : "s") left out: "
                + named.joined(separator: ", ") + more
        }
    }

    /// Builds `docset`'s text index; nil when another thread or process is building it now.
    static func build(_ docset: IndexedDocset, stateDirectory: String, limits: VisibleTextLimits = VisibleTextLimits())
        throws(DocsetIndexError) -> Outcome?
    {
        guard let writer = try FullTextWriter(docset, stateDirectory: stateDirectory) else { return nil }
        var outcome = Outcome()
        let pages = ParsedPages.start(docsetPath: docset.path, limits: limits)
        do {
            while let item = pages.pop() {
                switch item {
                case .skipped(let page, let reason):
                    outcome.skippedCount += 1
                    if outcome.skipped.count < 20 { outcome.skipped.append((page, reason)) }
                case .pairWords(let common, let universal):
                    writer.use(pairWords: (common, universal))
                case .page(let page, let text, let pairs):
                    if text.truncated { outcome.truncated += 1 }
                    try writer.add(path: page, title: text.title, body: text.body, pairs: pairs)
                }
            }
        } catch {
            pages.cancel()
            throw error
        }
        if let error = pages.error {
            throw error as? DocsetIndexError ?? .io(docset.name, "text index: \(error)")
        }
        outcome.pages = writer.pages
        outcome.bytes = try writer.finish(meta: ["docset": docset.name])
        return outcome
    }

    /// Text read for a snippet, at most: parsing stops there (a snippet of a page whose first match is further
    /// is the start of its text), so a hit on a large page costs no more than ``snippetTextBytes`` of parsing.
    static let snippetTextBytes = 256 << 10

    /// The visible text of one page of `docset` (nil when it cannot be read or parsed), for snippets: its first
    /// ``snippetTextBytes``.
    static func text(of page: String, in docset: IndexedDocset) -> VisibleText? {
        let installed = InstalledDocset(name: docset.name, path: docset.path)
        var limits = VisibleTextLimits()
        limits.maximumTextBytes = snippetTextBytes
        guard let bytes = try? installed.contentsBlocking(of: page, maximumBytes: limits.maximumPageBytes)
        else { return nil }
        return try? VisibleTextReader.read(bytes, limits: limits)
    }
}
