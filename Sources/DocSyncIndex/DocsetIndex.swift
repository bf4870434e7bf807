import DocSyncSupport
import Foundation

/// One read-only search over the entries of every installed docset, in both index formats (Dash's `searchIndex`
/// and Apple's Core Data tokens), with entry types normalised to one vocabulary and `<dash_entry_…>` markup removed.
///
/// `DocsetIndex` never writes a docset: it reads each `docSet.dsidx` read-only (a WAL-mode index through a copy in
/// the state folder, see `SourceIndex`) once, into a derived index in `<state>/index/` that docsync builds when it
/// installs a docset, and rebuilds when it is missing or stale. Searching reads only the derived indexes.
///
/// ```swift
/// let index = DocsetIndex(docsets: installed, stateDirectory: configuration.state)
/// for hit in try await index.search(SearchQuery("nsstring", types: ["Class"], limit: 10)).hits {
///     print(hit.name, hit.type, hit.docset, hit.url)
/// }
/// ```
/// Thread-safe; a search takes milliseconds (see Benchmarks/README.md) on the library's bounded pool of threads for
/// blocking work (`max(2, cores)` threads, shared with page reads and index preparation: any number of concurrent
/// searches queue there instead of starting a thread each).
///
/// `@unchecked Sendable`: `opened` and `scratches` are read and written only while holding `lock`; the rest is `let`.
public final class DocsetIndex: @unchecked Sendable {
    /// The docsets searched, in the order given.
    public let docsets: [IndexedDocset]
    /// docsync's state folder; derived indexes live in its `index` subfolder.
    public let stateDirectory: String
    /// A docset with more entries than this is not indexed (`DocsetIndexError.tooLarge`).
    public let maximumEntries: Int
    /// Named groups `SearchQuery.docsets` may select with `@name` (an unknown group selects nothing).
    public let groups: DocsetGroups
    /// Searches over at least this many entries are ranked in parts on the pool's threads (`ranked`).
    package let splitEntries: Int
    /// The scan masks this index's docsets may keep mapped between searches.
    let masks: MaskBudget
    /// Guards `opened` and `scratches`; searches that need a docset whose index another thread is building wait on
    /// it.
    private let lock = ConditionLock()
    private var opened: [Int: Slot] = [:]
    /// Scan buffers of finished searches, reused by the next ones.
    private var scratches: [SearchScratch] = []
    /// Text indexes' connections, kept open between text searches.
    package let textConnections = FullTextConnections()

    /// A search over `docsets`, keeping derived indexes in `<stateDirectory>/index`; creating it does no I/O;
    /// `groups` for `@name` selectors.
    public convenience init(
        docsets: [IndexedDocset], stateDirectory: String, maximumEntries: Int = 5_000_000,
        groups: DocsetGroups = DocsetGroups()
    ) {
        self.init(docsets: docsets, stateDirectory: stateDirectory, maximumEntries: maximumEntries, groups: groups,
            splitEntries: Self.defaultSplitEntries, maskBudget: .max)
    }

    /// ``init(docsets:stateDirectory:maximumEntries:groups:)`` ranking searches over `splitEntries` entries or more
    /// in parts (tests split small sets), keeping the scan masks of at most `maskBudget` bytes mapped between
    /// searches (`MaskBudget`: `serve`, whose goal counts the file pages it maps).
    package init(
        docsets: [IndexedDocset], stateDirectory: String, maximumEntries: Int = 5_000_000,
        groups: DocsetGroups = DocsetGroups(), splitEntries: Int, maskBudget: Int
    ) {
        self.docsets = docsets
        self.stateDirectory = stateDirectory
        self.maximumEntries = maximumEntries
        self.groups = groups
        self.splitEntries = splitEntries
        masks = MaskBudget(bytes: maskBudget)
    }

    /// `<state>/index`.
    public var indexFolder: String { "\(stateDirectory)/index" }

    /// Builds the derived index of `docset` when it is missing or stale; returns its entry count.
    @discardableResult
    package static func prepare(_ docset: IndexedDocset, stateDirectory: String, maximumEntries: Int = 5_000_000)
        throws(DocsetIndexError) -> Int
    {
        let folder = "\(stateDirectory)/index"
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw .io(docset.name, "cannot create \(folder): \(error)")
        }
        return try DerivedIndex.open(docset, indexFolder: folder, maxEntries: maximumEntries).entryCount
    }

    /// Builds the derived index of a docset that is still staged (`staged`: its folder before publishing, whose
    /// `docSet.dsidx` is final) under the key of the version it becomes (`version`: the folder's name in
    /// `.docsync/versions/`), so that it runs beside the publish instead of after it: the rename into place keeps
    /// the index file's inode, size and modification time, so `prepare` on the published docset finds it current.
    /// Returns the entry count. A build that is not current by then (the index changed) is simply built again by
    /// `prepare`; one for a version never published is removed by `removeUnused` like any other.
    package static func prebuild(
        _ staged: IndexedDocset, version: String, stateDirectory: String, maximumEntries: Int = 5_000_000
    ) throws(DocsetIndexError) -> Int {
        let source = try DerivedIndex.sourceSignature(staged)
        return try prebuild(
            staged, version: version, stateDirectory: stateDirectory, maximumEntries: maximumEntries, source: { source }
        ) ?? 0
    }

    /// As `prebuild(_:version:stateDirectory:maximumEntries:)`, reading the entries from `entries` (an
    /// `IndexSnapshot` of the staged index, taken before the installer completed it for Zeal) and recording as its
    /// source what `source` returns once the entries are read and sorted: the staged index's final
    /// `sourceSignature(of:)`, which it may wait for. Nil from `source`: the version will not be published; nothing is
    /// kept, and the result is nil.
    package static func prebuild(
        _ entries: IndexedDocset, version: String, stateDirectory: String, maximumEntries: Int = 5_000_000,
        source: () -> String?
    ) throws(DocsetIndexError) -> Int? {
        let folder = "\(stateDirectory)/index"
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw .io(entries.name, "cannot create \(folder): \(error)")
        }
        return try DerivedIndexBuilder.build(
            entries, key: version, source: source, indexFolder: folder, maxEntries: maximumEntries)
    }

    /// What a derived index records of the index it was built from (size, modification time and inode of
    /// `docSet.dsidx` and its `-wal`): an index whose record differs is stale.
    package static func sourceSignature(of docset: IndexedDocset) throws(DocsetIndexError) -> String {
        try DerivedIndex.sourceSignature(docset)
    }

    /// Deletes the derived indexes of docsets not in `docsets` (replaced or removed versions), and leftovers of
    /// interrupted builds older than an hour.
    package static func removeUnused(stateDirectory: String, keeping docsets: [IndexedDocset]) {
        let folder = "\(stateDirectory)/index"
        let keep = Set(docsets.map(DerivedIndex.key(for:)))
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for entry in entries where !keep.contains(entry) {
            let path = "\(folder)/\(entry)"
            if entry.hasPrefix(".") {
                let modified = (try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate]) as? Date
                guard let modified, Date().timeIntervalSince(modified) > 3600 else { continue }
            }
            try? FileManager.default.removeItem(atPath: path)
        }
    }

    /// The best `query.limit` entries across the selected docsets: exact matches first, then prefix, substring and
    /// fuzzy (subsequence) matches, shorter names first within each, ignoring case. A docset whose index cannot be
    /// read is reported in `failures`; the others still answer.
    ///
    /// Runs on the library's bounded pool of blocking threads (reading the memory-mapped indexes, and building a
    /// missing one, block), never on the caller's cooperative pool; ``DocsetIndexError/io(_:_:)`` when the system
    /// refuses that pool a thread. Throws ``DocsetIndexError/invalidQuery(_:)`` when ``SearchQuery/problem``
    /// names one, ``DocsetIndexError/notInstalled(_:)`` when ``SearchQuery/docsets`` names a docset that is not
    /// installed (or a group that does not exist), and ``DocsetIndexError/unknownKeyword(_:known:)`` when no docset
    /// has any of its keywords, before reading anything.
    public func search(_ query: SearchQuery) async throws(DocsetIndexError) -> SearchResults {
        // Everything, the checks included, on the pool's thread: the caller's task only queues the job and is
        // resumed with the results, so 2,000 concurrent searches cost the cooperative pool next to nothing.
        try await BlockingPool.shared.perform(refused: { .io("", "search not run: \($0)") }) {
            () throws(DocsetIndexError) in
            try self.check(query)
            return self.searchBlocking(query)
        }
    }

    /// What ``search(_:)`` throws before reading anything: an invalid query, a docset or group that is not
    /// installed, keywords no docset has.
    private func check(_ query: SearchQuery) throws(DocsetIndexError) {
        if let problem = query.problem { throw .invalidQuery(problem) }
        try checkInstalled(query.docsets)
        if let unknown = unknownKeywords(query) { throw unknown }
    }

    /// Throws ``DocsetIndexError/notInstalled(_:)`` when a search's docset filter (names, `NAME@VERSION`,
    /// `@GROUP`) names a docset or group that is not installed: a name search and a text search alike.
    func checkInstalled(_ filter: [String]) throws(DocsetIndexError) {
        let selected = groups.expand(filter)
        let installed = Set(docsets.map { $0.name.lowercased() })
        let versions = Set(docsets.compactMap { docset in docset.version.map { "\(docset.name)@\($0)".lowercased() } })
        let missing = filter.filter {
            !$0.hasPrefix("@") && !installed.contains($0.lowercased()) && !versions.contains($0.lowercased())
        }
        if !missing.isEmpty || !selected.unknown.isEmpty {
            throw .notInstalled(missing + selected.unknown.map { "@\($0)" })
        }
    }

    /// ``DocsetIndexError/unknownKeyword(_:known:)`` when `query` has keywords and no docset has any of them (naming
    /// the keywords the docsets have); nil otherwise. ``search(_:)`` throws it; callers of ``searchBlocking(_:)``
    /// (`serve`) ask first.
    package func unknownKeywords(_ query: SearchQuery) -> DocsetIndexError? {
        let keywords = KeywordQuery(keywords: query.keywords, text: query.text)
        guard !query.keywords.isEmpty, !docsets.contains(where: { keywords.matches($0.keywords) }) else { return nil }
        return .unknownKeyword(query.keywords, known: Set(docsets.flatMap(\.keywords)).sorted())
    }

    /// Builds the derived index of every docset that lacks an up-to-date one (what the first search would do), on
    /// the library's bounded pool of blocking threads. Every docset is tried; throws the first failure (``SearchResults/failures`` reports the
    /// same ones at each search).
    public func prepare() async throws(DocsetIndexError) {
        let failures = try await BlockingPool.shared.perform(refused: { .io("", "index not prepared: \($0)") }) {
            () throws(DocsetIndexError) in
            self.docsets.indices.compactMap { position -> DocsetIndexError? in
                if case .failure(let error) = self.open(position) { return error }
                return nil
            }
        }
        if let first = failures.first { throw first }
    }

    /// ``search(_:)`` on the calling thread, for tools inside this package (the CLI's benchmark mode, tests). The
    /// limit is clamped to 0…``SearchQuery/maximumLimit`` and nothing else is checked.
    package func searchBlocking(_ query: SearchQuery) -> SearchResults {
        var query = query
        query.limit = min(max(query.limit, 0), SearchQuery.maximumLimit)
        let needle = Array(query.text.lowercased().utf8)
        let selected = groups.expand(query.docsets)
        let wanted = Set(selected.docsets.map { $0.lowercased() })
        var failures: [DocsetIndexError] = []
        var indexes: [DerivedIndex] = []
        let keywords = KeywordQuery(keywords: query.keywords, text: query.text)
        for (position, docset) in docsets.enumerated()
        where (query.docsets.isEmpty || wanted.contains(docset.name.lowercased())
            || docset.version.map { wanted.contains("\(docset.name)@\($0)".lowercased()) } == true)
            && (query.keywords.isEmpty || keywords.matches(docset.keywords))
        {
            switch open(position) {
            case .success(let index): indexes.append(index)
            case .failure(let error): failures.append(error)
            }
        }
        let types = Set(query.types.map { EntryType.normalise($0).lowercased() })
        if query.isListing {
            let hits = Self.listing(indexes, types: types, limit: min(query.limit, SearchQuery.maximumListing))
            return SearchResults(hits: hits, failures: failures)
        }
        guard !needle.isEmpty, query.limit > 0 else { return SearchResults(hits: [], failures: failures) }
        let ranked = ranked(needle, limit: query.limit, types: types, indexes)
        // Records docset by docset (read with `pread`: no page of the mappings touched).
        var records: [NameTable.Record?] = Array(repeating: nil, count: ranked.count)
        var byDocset: [Int: [Int]] = [:]
        for (k, candidate) in ranked.enumerated() { byDocset[candidate.docset, default: []].append(k) }
        for (d, ks) in byDocset.sorted(by: { $0.key < $1.key }) {
            for k in ks { records[k] = indexes[d].names.record(ranked[k].position) }
            if ks.contains(where: { records[$0] == nil }) {
                failures.append(.unreadable(indexes[d].docset.name, "derived index: a damaged record"))
            }
        }
        var hits: [SearchHit] = []
        for (candidate, record) in zip(ranked, records) {
            guard let record else { continue }
            let index = indexes[candidate.docset]
            hits.append(SearchHit(record, in: index, match: candidate.kind))
        }
        return SearchResults(hits: hits, failures: failures)
    }

    /// The derived index of `docsets[position]`, opened (and built when missing or stale) once. The build runs
    /// without `lock`: searches of other docsets, and of docsets already open, go on meanwhile; only those that
    /// need this docset wait for its build.
    /// Scan buffers of an earlier search, or new ones.
    func takeScratch() -> SearchScratch {
        lock.withLock { scratches.popLast() } ?? SearchScratch()
    }

    /// Keeps `scratch` for a later search (a few are kept).
    func giveBack(_ scratch: SearchScratch) {
        lock.withLock { if scratches.count < 8 { scratches.append(scratch) } }
    }

    private func open(_ position: Int) -> Result<DerivedIndex, DocsetIndexError> {
        let known = lock.withLock { () -> Result<DerivedIndex, DocsetIndexError>? in
            while true {
                switch opened[position] {
                case .some(.ready(let result)): return result
                case .some(.building): lock.wait()
                case .none:
                    opened[position] = .building
                    return nil
                }
            }
        }
        if let known { return known }
        let docset = docsets[position]
        let result = Result { () throws(DocsetIndexError) -> DerivedIndex in
            do {
                try FileManager.default.createDirectory(atPath: indexFolder, withIntermediateDirectories: true)
            } catch {
                throw .io(docset.name, "cannot create \(indexFolder): \(error)")
            }
            return try DerivedIndex.open(docset, indexFolder: indexFolder, maxEntries: maximumEntries, masks: masks)
        }
        lock.withLock {
            opened[position] = .ready(result)
            lock.broadcast()
        }
        return result
    }
}

extension DocsetIndex {
    /// A docset's derived index in ``DocsetIndex``: being opened or built by one thread (others wait), or opened.
    fileprivate enum Slot {
        case building
        case ready(Result<DerivedIndex, DocsetIndexError>)
    }
}
