/// Picks the best `limit` entries across derived indexes: exact > prefix > substring > fuzzy, then shorter names,
/// then bytewise name order, then docset order. Lower ranks are only scanned while the better ones leave room.
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
        /// `2 * limit + 64`, saturating: no limit overflows it (the public API also refuses limits over
        /// `SearchQuery.maximumLimit`).
        var compactAt: Int {
            let (double, overflow) = max(limit, 0).multipliedReportingOverflow(by: 2)
            return overflow || double > Int.max - 64 ? Int.max : double + 64
        }

        mutating func offer(_ candidate: Candidate) {
            if let worst, !Candidate.precedes(candidate, worst) { return }
            items.append(candidate)
            if items.count >= compactAt { compact() }
        }

        mutating func compact() {
            items.sort(by: Candidate.precedes)
            if items.count > limit { items.removeLast(items.count - limit) }
            if items.count == limit { worst = items.last }
        }

        mutating func isFull() -> Bool {
            compact()
            return items.count >= limit
        }
    }

    func rank(_ indexes: [DerivedIndex]) -> [Candidate] {
        var selection = Selection(limit: limit)
        let allowed = indexes.map(allowedTypes)
        let searched = indexes.indices.filter { allowed[$0].map { $0.contains(true) } ?? true }
        /// Whether entry `i` of docset `d` passes the type filter and could still enter the selection as `kind`
        /// (cheap: asked before a name is checked).
        func worth(_ d: Int, _ i: Int, _ kind: MatchKind) -> Bool {
            let names = indexes[d].names
            if let mask = allowed[d] {
                let type = Int(names.type(i))
                guard type < mask.count, mask[type] else { return false }
            }
            guard let worst = selection.worst else { return true }
            return kind < worst.kind || (kind == worst.kind && names.length(i) <= worst.length)
        }
        func offer(_ d: Int, _ i: Int, _ kind: MatchKind) {
            guard worth(d, i, kind) else { return }
            let names = indexes[d].names
            selection.offer(
                Candidate(kind: kind, length: names.length(i), docset: d, position: i, name: Array(names.name(i))))
        }
        for d in searched {
            let index = indexes[d]
            for i in index.names.prefixRange(needle) {
                offer(d, i, index.names.length(i) == needle.count ? .exact : .prefix)
            }
            index.names.release()
        }
        if !selection.isFull() {
            for d in searched {
                indexes[d].names.substrings(needle, scratch: scratch, keep: { worth(d, $0, .substring) }) {
                    offer(d, $0, .substring)
                }
                indexes[d].names.release()
            }
        }
        if needle.count > 1, !selection.isFull() {
            for d in searched {
                indexes[d].names.subsequences(needle, keep: { worth(d, $0, .fuzzy) }) {
                    offer(d, $0, .fuzzy)
                }
                indexes[d].names.release()
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
