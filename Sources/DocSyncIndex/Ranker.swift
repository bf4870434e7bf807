/// Picks the best `limit` entries across derived indexes: exact > prefix > substring > fuzzy, then shorter names,
/// then bytewise name order, then docset order. Lower ranks are only scanned while the better ones leave room, and
/// the substring and fuzzy scans go through the names of all docsets together shortest first (one length group of
/// every docset, then the next length), stopping at the first length that can no longer enter the best `limit`;
/// the names checked are read a length group at a time (`NameTable.readRankNames`).
struct Ranker {
    struct Candidate {
        var kind: MatchKind
        var length: Int
        var docset: Int
        /// The sorted position; while ranking, a substring or fuzzy candidate holds its rank here instead (read as
        /// a position only for the hits kept). Both order a docset's equal names the same way (ranks follow length,
        /// then position), and only candidates of the same kind are compared on it.
        var position: Int
        /// A copy of the lowercased name: comparing candidates must not touch the mapped indexes again (a docset's
        /// pages are dropped from the resident set once it is searched, and the kernel maps them back in large
        /// folios — up to 2 MiB per touch).
        var name: [UInt8]

        static func precedes(_ a: Candidate, _ b: Candidate) -> Bool {
            if a.kind != b.kind { return a.kind < b.kind }
            if a.length != b.length { return a.length < b.length }
            let c = a.name.withUnsafeBufferPointer { x in b.name.withUnsafeBufferPointer { NameTable.compare(x, $0) } }
            if c != 0 { return c < 0 }
            if a.docset != b.docset { return a.docset < b.docset }
            return a.position < b.position
        }
    }

    let needle: [UInt8]
    let limit: Int
    /// Lowercased normalised types to keep; empty: all.
    let types: Set<String>
    /// Buffers for the scans (see `SearchScratch`).
    var scratch = SearchScratch()

    private struct Selection {
        let limit: Int
        var items: [Candidate] = []
        var worst: Candidate?
        /// Candidates were offered since the last `compact`.
        var dirty = false
        /// `2 * limit + 64`, saturating: no limit overflows it (the public API also refuses limits over
        /// `SearchQuery.maximumLimit`).
        var compactAt: Int {
            let (double, overflow) = max(limit, 0).multipliedReportingOverflow(by: 2)
            return overflow || double > Int.max - 64 ? Int.max : double + 64
        }

        mutating func offer(_ candidate: Candidate) {
            if let worst, !Candidate.precedes(candidate, worst) { return }
            items.append(candidate)
            dirty = true
            if items.count >= compactAt { compact() }
        }

        mutating func compact() {
            guard dirty else { return }
            dirty = false
            items.sort(by: Candidate.precedes)
            if items.count > limit { items.removeLast(items.count - limit) }
            if items.count == limit { worst = items.last }
        }

        mutating func isFull() -> Bool {
            compact()
            return items.count >= limit
        }

        /// Whether a `kind` match of `length` bytes (or more) could still enter the best `limit`.
        mutating func admits(_ kind: MatchKind, length: Int) -> Bool {
            guard isFull(), let worst else { return true }
            return kind < worst.kind || (kind == worst.kind && length <= worst.length)
        }
    }

    /// Candidates whose names lie at most this many bytes apart are read with one `pread` (copying the bytes between
    /// costs less than another system call).
    static let readGap = 8192

    /// The best `limit` candidates of the docsets `only` (places in `indexes`; nil: all), sorted best first; a
    /// candidate's `docset` is its place in `indexes`. `stages` chooses what is searched: the exact and prefix
    /// matches (a binary search per docset), the tail (substring and fuzzy matches: the scans), or both; `seed` are
    /// candidates found before (the exact and prefix matches of every docset, for a tail ranked in parts), ranked
    /// with the rest.
    func rank(
        _ indexes: [DerivedIndex], only: [Int]? = nil, stages: Stages = .all, seed: [Candidate] = []
    ) -> [Candidate] {
        var selection = Selection(limit: limit)
        for candidate in seed { selection.offer(candidate) }
        let allowed = indexes.map(allowedTypes)
        let searched = (only ?? Array(indexes.indices)).filter { allowed[$0].map { $0.contains(true) } ?? true }
        /// Whether entry `i` (sorted position) of docset `d` passes the type filter and could still enter the
        /// selection as `kind` (cheap: asked before a name is read).
        func worth(_ names: NameTable, _ d: Int, _ i: @autoclosure () -> Int, _ kind: MatchKind, length: Int) -> Bool {
            if let mask = allowed[d] {
                let type = Int(names.type(i()))
                guard type < mask.count, mask[type] else { return false }
            }
            guard let worst = selection.worst else { return true }
            return kind < worst.kind || (kind == worst.kind && length <= worst.length)
        }
        func offer(_ names: NameTable, _ d: Int, _ i: Int, _ kind: MatchKind, _ line: UnsafeBufferPointer<UInt8>) {
            selection.offer(Candidate(kind: kind, length: line.count, docset: d, position: i, name: Array(line)))
        }
        /// The longest exact or prefix match that can still enter the selection (`worth` without the type filter).
        func prefixBound() -> Int {
            guard let worst = selection.worst else { return .max }
            switch worst.kind {
            case .exact: return needle.count
            case .prefix: return worst.length
            default: return .max
            }
        }
        for d in searched where stages.contains(.prefixes) {
            let names = indexes[d].names
            names.forEachPrefixMatch(needle, scratch: scratch, bound: prefixBound()) { i, line in
                let kind: MatchKind = line.count == needle.count ? .exact : .prefix
                if worth(names, d, i, kind, length: line.count) { offer(names, d, i, kind, line) }
                return prefixBound()
            }
            if allowed[d] != nil { names.release() }  // the type filter read the mapping
        }
        // Substrings (not at the start), then fuzzy matches: names of at least one byte more than the query,
        // shortest first across all docsets at once (each length group of every docset before the next length), so
        // the walk stops at the first length that can no longer enter the best `limit` of all of them together.
        let minimumLength = needle.count + 1
        let wanted = NameTable.scanMask(needle)
        let tables = searched.map { indexes[$0].names }
        let masks = MaskWalk(tables: tables)
        var names = scratch.names
        scratch.names = []
        var ranks: [Int] = []
        /// Per length group from `minimumLength` on, the docsets (places in `searched`) holding names of that length:
        /// the scans visit only these (most of the 257 groups of most docsets are empty, and visiting every group of
        /// 250 docsets twice cost more than the scans of a rare query).
        let first = min(minimumLength, NameTable.lengthGroups)
        var holders = [[Int]](repeating: [], count: NameTable.lengthGroups + 1 - first)
        for (k, table) in tables.enumerated() {
            for group in table.nonEmptyGroups where group >= first { holders[group - first].append(k) }
        }
        /// Each length group (from `minimumLength`) of every searched docset in turn, while a `kind` match of that
        /// length could still rank: `candidates(k, table, ranks)` appends the group's ranks worth checking (`k`: the
        /// docset's place in `searched`) to `ranks`, and `matches(line)` decides each one on its name.
        func scanByLength(
            _ kind: MatchKind, _ candidates: (_ k: Int, _ table: NameTable, _ group: Range<Int>) -> Void,
            matches: (UnsafeBufferPointer<UInt8>) -> Bool
        ) {
            for (offset, docsets) in holders.enumerated() where !docsets.isEmpty {
                let group = first + offset
                guard selection.admits(kind, length: max(group, minimumLength)) else { return }
                for k in docsets {
                    let d = searched[k]
                    let table = tables[k]
                    let range = table.ranks(ofGroup: group)
                    ranks.removeAll(keepingCapacity: true)
                    candidates(k, table, range)
                    if ranks.isEmpty { continue }
                    let short = group < NameTable.lengthGroups
                    // Checked in place in the mapping (`keepsNames`), or in clusters of nearby ranks, each
                    // cluster's names read with one `pread`.
                    let mapped = short && table.keepsNames ? table.mappedRankNames(group: group) : nil
                    var first = 0
                    while first < ranks.count {
                        var end = first + 1
                        if short && mapped == nil {
                            while end < ranks.count, (ranks[end] - ranks[end - 1]) * group <= Self.readGap { end += 1 }
                            let span = (ranks[first] - range.lowerBound)..<(ranks[end - 1] + 1 - range.lowerBound)
                            table.readRankNames(group: group, span, into: &names)
                        } else {
                            end = ranks.count
                        }
                        let base = mapped == nil ? ranks[first] : range.lowerBound
                        names.withUnsafeBufferPointer { all in
                            let start = mapped ?? all.baseAddress  // nil only with no short name to check
                            for rank in ranks[first..<end] {
                                let length = table.length(rank: rank, group: group)
                                guard length >= minimumLength,
                                    worth(table, d, table.position(rank: rank), kind, length: length)
                                else { continue }
                                let line =
                                    short
                                    ? UnsafeBufferPointer(start: start! + (rank - base) * group, count: group)
                                    : table.name(table.position(rank: rank))
                                if matches(line) {
                                    selection.offer(
                                        Candidate(
                                            kind: kind, length: length, docset: d, position: rank, name: Array(line)))
                                }
                            }
                        }
                        first = end
                    }
                    // The type filter and names of 256 bytes or more read the mapping: drop what they touched.
                    if !short || allowed[d] != nil { table.release() }
                }
            }
        }
        needle.withUnsafeBufferPointer { needle in
            guard stages.contains(.tail) else { return }
            if !selection.isFull() {
                let substring = { (line: UnsafeBufferPointer<UInt8>) -> Bool in
                    if let at = NameTable.find(needle, in: line), at > 0 { return true }
                    return false
                }
                if needle.count >= 3 {
                    // Each docset's candidates from its postings (by rank), read a length group at a time.
                    let walk = SubstringWalk(self.needle, tables: searched.map { indexes[$0].names })
                    scanByLength(
                        .substring, { k, _, group in walk.candidates(k, in: group, into: &ranks) },
                        matches: substring)
                } else {
                    scanByLength(
                        .substring, { k, _, group in masks.scan(k, wanted, ranks: group) { ranks.append($0) } },
                        matches: substring)
                }
            }
            guard needle.count > 1, !selection.isFull() else { return }
            scanByLength(
                .fuzzy,
                { k, _, group in masks.scan(k, wanted, ranks: group) { ranks.append($0) } },
                matches: { NameTable.isSubsequence(needle, of: $0) && NameTable.find(needle, in: $0) == nil })
        }
        scratch.names = names
        selection.compact()
        return selection.items.map { candidate in
            var hit = candidate
            if hit.kind >= .substring { hit.position = indexes[hit.docset].names.readPosition(rank: hit.position) }
            return hit
        }
    }

    /// What `rank` searches.
    struct Stages: OptionSet {
        let rawValue: Int
        /// Exact and prefix matches.
        static let prefixes = Stages(rawValue: 1)
        /// Substring and fuzzy matches.
        static let tail = Stages(rawValue: 2)
        static let all: Stages = [.prefixes, .tail]
    }

    /// Per type id: kept or not (nil: no type filter).
    private func allowedTypes(_ index: DerivedIndex) -> [Bool]? {
        guard !types.isEmpty else { return nil }
        var mask = [Bool](repeating: false, count: Int(index.typeNames.keys.max() ?? 0) + 1)
        for (id, name) in index.typeNames where types.contains(name.lowercased()) { mask[Int(id)] = true }
        return mask
    }
}

