/// A Dash `<version>`: `VERSION[/REVISION]`, both free-form (`SE26`, `6.6 (modern)`, `13.x/2`, `/9`, `/1.35`).
/// Pure.
struct DashVersion: Sendable, Equatable {
    var version: String?
    var revision: String?

    /// Splits at the first `/`; empty halves are nil.
    init(_ text: String) {
        let trimmed = FeedText.collapsingWhitespace(text)
        if let slash = trimmed.firstIndex(of: "/") {
            version = Self.nonEmpty(trimmed[..<slash])
            revision = Self.nonEmpty(trimmed[trimmed.index(after: slash)...])
        } else {
            version = Self.nonEmpty(trimmed[...])
            revision = nil
        }
    }

    init(version: String?, revision: String?) {
        self.version = version
        self.revision = revision
    }

    private static func nonEmpty(_ text: Substring) -> String? {
        let trimmed = FeedText.collapsingWhitespace(String(text))
        return trimmed.isEmpty ? nil : trimmed
    }
}
