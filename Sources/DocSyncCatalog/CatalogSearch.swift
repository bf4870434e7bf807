/// Ranks catalogue entries against a query the way a search box would: exact name, alias, name prefix, title
/// prefix, name or title substring, alias substring, then near misses by edit distance. Pure.
package enum CatalogSearch {
    /// Matching entries, best first (ties by name); every entry sorted by name when `query` is empty.
    package static func rank(_ entries: [CatalogEntry], query: String) -> [CatalogEntry] {
        let q = query.trimmingCharacters(in: .whitespaces).lowercased()
        let scored = entries.compactMap { entry -> (CatalogEntry, Int)? in
            guard !q.isEmpty else { return (entry, 0) }
            return score(entry, q).map { (entry, $0) }
        }
        return scored.sorted {
            if $0.1 != $1.1 { return $0.1 < $1.1 }
            let (a, b) = ($0.0.name.lowercased(), $1.0.name.lowercased())
            return a != b ? a < b : $0.0.source < $1.0.source
        }.map(\.0)
    }

    static func score(_ entry: CatalogEntry, _ q: String) -> Int? {
        let name = entry.name.lowercased()
        let title = entry.title.lowercased()
        let aliases = entry.aliases.map { $0.lowercased() }
        if name == q { return 0 }
        if aliases.contains(q) || title == q { return 1 }
        if name.hasPrefix(q) { return 2 }
        if title.hasPrefix(q) { return 3 }
        if name.contains(q) || title.contains(q) { return 4 }
        if aliases.contains(where: { $0.contains(q) }) { return 5 }
        let distance = ([name] + aliases).map { EditDistance.between($0, q) }.min() ?? .max
        return distance <= max(1, min(3, q.count / 3)) ? 6 + distance : nil
    }
}
