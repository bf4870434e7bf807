/// Finds catalogue entries by name: case-insensitive on the name, then on aliases, searching the catalogues in the
/// order given (or only the one named), with "did you mean" suggestions on a miss. Pure.
package struct CatalogResolver: Sendable {
    /// The outcome of looking a name up.
    package enum Match: Sendable, Equatable {
        case found(CatalogEntry)
        /// Nothing by that name; the closest names (at most three, best first), possibly none.
        case missing(suggestions: [String])
    }

    /// A version to install: its label and archive mirrors.
    package struct Pinned: Sendable, Equatable {
        package var version: String
        package var archives: [String]
    }

    package let catalogs: [Catalog]

    package init(catalogs: [Catalog]) { self.catalogs = catalogs }

    package func resolve(_ name: String, source: CatalogSource? = nil) -> Match {
        let wanted = name.trimmingCharacters(in: .whitespaces).lowercased()
        let pool = catalogs.filter { source == nil || $0.source == source }.flatMap(\.entries)
        if let entry = pool.first(where: { $0.name.lowercased() == wanted }) { return .found(entry) }
        if let entry = pool.first(where: { $0.aliases.contains { $0.lowercased() == wanted } }) {
            return .found(entry)
        }
        return .missing(suggestions: Self.suggestions(for: wanted, in: pool))
    }

    /// Up to three names close to `query`: by edit distance (at most a third of the length, 1–3), or sharing a
    /// prefix of at least three characters; aliases suggest their entry's name.
    static func suggestions(for query: String, in pool: [CatalogEntry]) -> [String] {
        let limit = max(1, min(3, query.count / 3))
        var scored: [(name: String, score: Int)] = []
        for entry in pool {
            var best = Int.max
            for candidate in [entry.name] + entry.aliases {
                let lower = candidate.lowercased()
                let distance = EditDistance.between(query, lower)
                if distance <= limit {
                    best = min(best, distance)
                } else if query.count >= 3, lower.hasPrefix(query) || query.hasPrefix(lower) && lower.count >= 3 {
                    best = min(best, limit + 1 + abs(lower.count - query.count))
                }
            }
            if best != .max, !scored.contains(where: { $0.name == entry.name }) {
                scored.append((entry.name, best))
            }
        }
        return scored.sorted { ($0.score, $0.name.lowercased()) < ($1.score, $1.name.lowercased()) }
            .prefix(3).map(\.name)
    }

    /// The archives of `version` (nil: the latest). A version may be written with a revision (`3.9.6/1`, ignored)
    /// or `.`-prefixed (completed as Kapeli does). Nil when the entry does not offer it.
    package static func archives(of entry: CatalogEntry, version: String?, alternates: CatalogAlternates) -> Pinned? {
        guard let version else {
            guard !entry.archives.isEmpty else { return nil }
            return Pinned(version: entry.latestVersion ?? "", archives: entry.archives)
        }
        let wanted = KapeliVersion.complete(KapeliVersion.withoutRevision(version), feedName: entry.name).lowercased()
        if let latest = entry.latestVersion, latest.lowercased() == wanted, !entry.archives.isEmpty {
            return Pinned(version: latest, archives: entry.archives)
        }
        guard let specific = entry.specificVersions.first(where: { $0.version.lowercased() == wanted }) else {
            return nil
        }
        if !specific.archives.isEmpty { return Pinned(version: specific.version, archives: specific.archives) }
        switch entry.source {
        case .zeal, .kapeli:
            return Pinned(version: specific.version, archives: alternates.docset(entry.name, version: specific.version))
        case .contrib, .cheatsheets:
            return nil
        }
    }
}
