extension DocsetIndex {
    /// The first `limit` entries of `indexes` A–Z (by lowercased name, then docset), of `types` when not empty: what
    /// a keyword-only query (`html:`) shows, as Zeal lists a docset's symbols (`ORDER BY name LIMIT 1000`). Names
    /// are stored sorted, so each docset contributes its first `limit` matching positions; a damaged record is
    /// skipped.
    static func listing(_ indexes: [DerivedIndex], types: Set<String>, limit: Int) -> [SearchHit] {
        guard limit > 0 else { return [] }
        var candidates: [(name: [UInt8], docset: Int, position: Int)] = []
        for (d, index) in indexes.enumerated() {
            let wanted: Set<UInt16>? =
                types.isEmpty ? nil : Set(index.typeNames.filter { types.contains($0.value.lowercased()) }.keys)
            var taken = 0
            var position = 0
            while position < index.names.count, taken < limit {
                defer { position += 1 }
                if let wanted, !wanted.contains(index.names.type(position)) { continue }
                candidates.append((Array(index.names.name(position)), d, position))
                taken += 1
            }
        }
        candidates.sort { a, b in
            a.name != b.name
                ? a.name.lexicographicallyPrecedes(b.name) : (a.docset, a.position) < (b.docset, b.position)
        }
        return candidates.prefix(limit).compactMap { candidate in
            let index = indexes[candidate.docset]
            guard let record = index.names.record(candidate.position) else { return nil }
            return SearchHit(record, in: index, match: .prefix)
        }
    }
}
