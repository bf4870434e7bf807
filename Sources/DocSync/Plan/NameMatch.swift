internal import DocSyncCatalog

/// Docset names asked for on the command line (`sync --only`, `remove`) that match nothing: an error that lists the
/// names that exist and the nearest one (`apidoc` → `apiDoc`). Pure.
public struct UnknownDocsetError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The names that matched nothing, each with its nearest known name if one is close.
    public var unknown: [Miss]
    /// Every known name, sorted.
    public var known: [String]

    /// A requested name that matched nothing, and the known name it is probably meant to be.
    public struct Miss: Sendable, Equatable {
        /// The name as requested.
        public var name: String
        /// The known name it probably means (same name ignoring case, or a small edit away); nil when none is close.
        public var suggestion: String?
    }

    public var description: String {
        let misses = unknown.map { miss in
            "no docset named \"\(miss.name)\"" + (miss.suggestion.map { " (did you mean \"\($0)\"?)" } ?? "")
        }
        let list = known.isEmpty ? "there are none" : "known: \(known.joined(separator: ", "))"
        return misses.joined(separator: "; ") + "; \(list)"
    }

    /// Nil when every requested name is known.
    public static func check(requested: some Collection<String>, known: some Collection<String>) -> Self? {
        let names = Set(known)
        let missing = requested.filter { !names.contains($0) }.sorted()
        guard !missing.isEmpty else { return nil }
        return Self(
            unknown: missing.map { Miss(name: $0, suggestion: nearest($0, in: names)) }, known: names.sorted())
    }

    /// The same name ignoring case, else the closest within a small edit distance (1 for short names, else 2 or a third of the length, at most 3).
    static func nearest(_ name: String, in known: Set<String>) -> String? {
        let lower = name.lowercased()
        if let same = known.sorted().first(where: { $0.lowercased() == lower }) { return same }
        let limit = name.count <= 2 ? 1 : min(3, max(2, name.count / 3))
        let scored = known.map { ($0, EditDistance.between(lower, $0)) }.filter { $0.1 <= limit }
        return scored.min { ($0.1, $0.0) < ($1.1, $1.0) }?.0
    }
}
