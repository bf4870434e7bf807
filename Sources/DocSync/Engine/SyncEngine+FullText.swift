internal import DocSyncFeed
internal import DocSyncSupport

#if canImport(Glibc)
    import Glibc
#endif

extension SyncEngine {
    /// Builds the text index of every installed docset that lacks one and has full text on (`[search] full_text`),
    /// after the run's installs are published (a docset is readable before its text index exists): new and
    /// updated docsets, docsets installed before docsync built text indexes, adopted ones — none downloaded again;
    /// and rebuilds each index of an older layout (`FullTextWriter.isOutdated`; the old one answers meanwhile and is
    /// replaced by a rename).
    /// Pages left out and failures are `.warning` events naming the docset.
    func buildTextIndexes(emit: @escaping @Sendable (SyncEvent) -> Void) async {
        await buildTextIndexes(installed: nil, emit: emit)
    }

    /// `buildTextIndexes(emit:)` over `installed` as the run read it (nil: read the root now).
    func buildTextIndexes(installed: [InstalledDocset]?, emit: @escaping @Sendable (SyncEvent) -> Void) async {
        guard let installed = installed ?? (try? installedDocsets()) else { return }
        let state = configuration.state
        for docset in installed.map(Self.indexed) where configuration.search.fullText(of: docset.name) {
            switch FullTextStore.state(of: docset, stateDirectory: state) {
            case .building: continue
            case .ready(let path) where !FullTextWriter.isOutdated(path: path): continue
            case .ready, .missing: await Self.buildTextIndex(docset, stateDirectory: state, emit: emit)
            }
        }
    }

    /// The text index of each installed docset named (every one when `names` is empty) that has a problem, for
    /// `docsync verify`: `missing` (full text is on and none is built: the next sync builds it), or `damaged` with
    /// why (`FullTextReader.problem`: `sync --repair` deletes it and builds it again from the installed pages, no
    /// download). An index being built is not checked.
    package func verifyTextIndexes(names: [String] = []) async -> [(name: String, damaged: Bool, problem: String)] {
        guard let installed = try? installedDocsets() else { return [] }
        let wanted = Set(names.compactMap { try? resolvedName($0) })
        let state = configuration.state
        let search = configuration.search
        return await WorkerThread.run(name: "docsync-verify-text", stackSize: 1 << 20) {
            installed.filter { wanted.isEmpty || wanted.contains($0.name) }.compactMap { docset in
                switch FullTextStore.state(of: Self.indexed(docset), stateDirectory: state) {
                case .building: return nil
                case .missing:
                    guard search.fullText(of: docset.name) else { return nil }
                    return (docset.name, false, "text index missing (the next sync builds it, without downloading)")
                case .ready(let path):
                    guard let problem = FullTextReader.problem(path: path) else { return nil }
                    return (docset.name, true, "text index damaged: \(problem) (`docsync sync --repair` rebuilds it)")
                }
            }
        }
    }

    /// `sync --repair`: deletes the damaged text indexes (`verifyTextIndexes`), which `buildTextIndexes` then
    /// builds again from the installed pages.
    func removeDamagedTextIndexes() async {
        for damaged in await verifyTextIndexes() where damaged.damaged {
            guard let docset = try? installedDocsets().first(where: { $0.name == damaged.name }) else { continue }
            unlink(FullTextStore.path(of: Self.indexed(docset), stateDirectory: configuration.state))
        }
    }

    /// Builds `docset`'s text index on a thread of its own; what went wrong as `.warning` events.
    static func buildTextIndex(
        _ docset: IndexedDocset, stateDirectory: String, emit: @escaping @Sendable (SyncEvent) -> Void
    ) async {
        let result = await WorkerThread.run(name: "docsync-fulltext", stackSize: 8 << 20) {
            Result { () throws(DocsetIndexError) in try FullTextIndexing.build(docset, stateDirectory: stateDirectory) }
        }
        switch result {
        case .success(let outcome):
            if let warning = outcome?.warning { emit(.warning(name: docset.name, message: warning)) }
        case .failure(let error):
            emit(.warning(name: docset.name, message: "text index not built: \(error.message)"))
        }
    }
}

extension DocsetIndex {
    /// The pages whose visible text matches `query`, best first (BM25, the title weighted ten times the body),
    /// across the selected docsets' text indexes, each with a snippet around its first match. A query on more than
    /// 2,000 pages of a docset (every word common) is ranked among the first 2,000 it matches in page order and the
    /// first 200 whose title holds its words, so a query's cost is bounded by its result size, not by the pages a
    /// word is on; a phrase of common words, or a word minus one on nearly every page, takes its candidates from the
    /// index's word pairs and is ranked among its first 150 matches (all of them when fewer) and those 200; every
    /// hit matches.
    ///
    /// Query syntax: words (all must match), `"quoted phrases"` (in order), `word*` (a prefix), `-word` or
    /// `-"a phrase"` (excluded); case and diacritics ignored. The text is parsed by docsync and passed to SQLite
    /// FTS5 as quoted strings only. Throws ``DocsetIndexError/invalidQuery(_:)`` for a query over 1 KiB, without a
    /// word, or with a syntax error (the message names its position), or a limit outside 1…10 000, and
    /// ``DocsetIndexError/notInstalled(_:)`` when ``TextSearchQuery/docsets`` names a docset or group that is not
    /// installed (as ``search(_:)`` does). Docsets whose
    /// text index is being built or missing are listed in the results (``TextSearchResults/building``,
    /// ``TextSearchResults/missing``); one that cannot be read is a failure there, the others still answer. Runs on
    /// the library's bounded pool of blocking threads (as ``search(_:)``).
    public func fullTextSearch(_ query: TextSearchQuery) async throws(DocsetIndexError) -> TextSearchResults {
        try await BlockingPool.shared.perform(refused: { .io("", "text search not run: \($0)") }) {
            () throws(DocsetIndexError) in try self.fullTextSearchBlocking(query)
        }
    }

    /// ``fullTextSearch(_:)`` on the calling thread, for tools inside this package (benchmarks, `serve`'s pool).
    package func fullTextSearchBlocking(_ query: TextSearchQuery) throws(DocsetIndexError) -> TextSearchResults {
        try fullTextSearchBlocking(query) { docset, page in FullTextIndexing.text(of: page, in: docset)?.body }
    }
}

/// A page's visible text (``InstalledDocset/text(of:maximumBytes:)``).
public struct PageText: Sendable, Equatable {
    /// The page's `<title>`.
    public var title: String
    /// The body's visible text: `script`, `style` and `template` left out, entities decoded, whitespace folded,
    /// one line per block.
    public var text: String
    /// True when the text was cut at 2 MiB.
    public var truncated: Bool
}

extension InstalledDocset {
    /// The visible text of one page (the text its text index holds), read as ``contents(of:maximumBytes:)`` reads
    /// it (the same path checks and errors) and parsed with libxml2's HTML parser in bounded memory and time.
    public func text(of page: String, maximumBytes: Int = 32 << 20) async throws(DocumentError) -> PageText {
        let docset = self
        return try await BlockingPool.shared.perform(refused: { Self.refused($0, docset: docset.name, page: page) }) {
            () throws(DocumentError) in try docset.textBlocking(of: page, maximumBytes: maximumBytes)
        }
    }

    /// ``text(of:maximumBytes:)`` on the calling thread.
    package func textBlocking(of page: String, maximumBytes: Int = 32 << 20) throws(DocumentError) -> PageText {
        let bytes = try contentsBlocking(of: page, maximumBytes: maximumBytes)
        var limits = VisibleTextLimits()
        limits.maximumPageBytes = max(maximumBytes, 0)
        do {
            let text = try VisibleTextReader.read(bytes, limits: limits)
            return PageText(title: text.title, text: text.body, truncated: text.truncated)
        } catch {
            throw .make(.io, docset: name, page: page.escapingControlCharacters, message: error.message)
        }
    }
}

extension SyncEngine {
    /// The text index of an installed docset, as `docsync status` shows it: `ready` with its size in bytes,
    /// `building`, `none` (not built yet), or `off` (`[search] full_text`).
    package func textIndex(of docset: InstalledDocset) -> (state: String, bytes: Int64?) {
        let indexed = Self.indexed(docset)
        switch FullTextStore.state(of: indexed, stateDirectory: configuration.state) {
        case .ready: return ("ready", FullTextStore.size(of: indexed, stateDirectory: configuration.state))
        case .building: return ("building", nil)
        case .missing: return (configuration.search.fullText(of: docset.name) ? "none" : "off", nil)
        }
    }
}
