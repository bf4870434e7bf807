/// Picks the best `limit` entries across derived indexes: exact > prefix > substring > fuzzy, then shorter names,
/// then bytewise name order, then docset order. Lower ranks are only scanned while the better ones leave room, and
/// the substring and fuzzy scans go through each docset's names shortest first, stopping at the first length that
/// can no longer enter the best `limit`.
struct Ranker {
    struct Candidate {
        var kind: MatchKind
        var length: Int
        var docset: Int
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

    func rank(_ indexes: [DerivedIndex]) -> [Candidate] {
        var selection = Selection(limit: limit)
        let allowed = indexes.map(allowedTypes)
        let searched = indexes.indices.filter { allowed[$0].map { $0.contains(true) } ?? true }
        /// Whether entry `i` (sorted position) of docset `d` passes the type filter and could still enter the
        /// selection as `kind` (cheap: asked before a name is read).
        func worth(_ names: NameTable, _ d: Int, _ i: Int, _ kind: MatchKind, length: Int) -> Bool {
            if let mask = allowed[d] {
                let type = Int(names.type(i))
                guard type < mask.count, mask[type] else { return false }
            }
            guard let worst = selection.worst else { return true }
            return kind < worst.kind || (kind == worst.kind && length <= worst.length)
        }
        func offer(_ names: NameTable, _ d: Int, _ i: Int, _ kind: MatchKind, _ line: UnsafeBufferPointer<UInt8>) {
            selection.offer(Candidate(kind: kind, length: line.count, docset: d, position: i, name: Array(line)))
        }
        for d in searched {
            let names = indexes[d].names
            for i in names.prefixRange(needle) {
                let kind: MatchKind = names.length(i) == needle.count ? .exact : .prefix
                if worth(names, d, i, kind, length: names.length(i)) { offer(names, d, i, kind, names.name(i)) }
            }
            names.release()
        }
        // Substrings (not at the start), then fuzzy matches: names of at least one byte more than the query,
        // shortest first, each docset's walk stopping at the first length that can no longer rank.
        let minimumLength = needle.count + 1
        let wanted = NameTable.fold(NameTable.mask(needle))
        needle.withUnsafeBufferPointer { needle in
            if !selection.isFull() {
                for d in searched {
                    let names = indexes[d].names
                    func check(_ rank: Int, _ group: Int) {
                        let i = names.position(rank: rank)
                        let length = names.length(rank: rank, group: group)
                        guard length >= minimumLength, worth(names, d, i, .substring, length: length) else { return }
                        let line = names.name(i)
                        if let at = NameTable.find(needle, in: line), at > 0 { offer(names, d, i, .substring, line) }
                    }
                    let goOn = { (length: Int) in selection.admits(.substring, length: max(length, minimumLength)) }
                    if needle.count >= 3 {
                        names.substringCandidates(self.needle, scratch: scratch, goOn: goOn, check)
                    } else {
                        names.maskScan(wanted, minimumLength: minimumLength, goOn: goOn, check)
                    }
                    names.release()
                }
            }
            guard needle.count > 1, !selection.isFull() else { return }
            for d in searched {
                let names = indexes[d].names
                names.maskScan(
                    wanted, minimumLength: minimumLength,
                    goOn: { selection.admits(.fuzzy, length: max($0, minimumLength)) }
                ) { rank, group in
                    let i = names.position(rank: rank)
                    let length = names.length(rank: rank, group: group)
                    guard length >= minimumLength, worth(names, d, i, .fuzzy, length: length) else { return }
                    let line = names.name(i)
                    if NameTable.isSubsequence(needle, of: line), NameTable.find(needle, in: line) == nil {
                        offer(names, d, i, .fuzzy, line)
                    }
                }
                names.release()
            }
        }
        selection.compact()
        return selection.items
    }

    /// Per type id: kept or not (nil: no type filter).
    private func allowedTypes(_ index: DerivedIndex) -> [Bool]? {
        guard !types.isEmpty else { return nil }
        var mask = [Bool](repeating: false, count: Int(index.typeNames.keys.max() ?? 0) + 1)
        for (id, name) in index.typeNames where types.contains(name.lowercased()) { mask[Int(id)] = true }
        return mask
    }
}
