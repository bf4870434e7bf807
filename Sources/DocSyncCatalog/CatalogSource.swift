/// The kinds of catalogue docsync reads. The raw value is the config table name (`[catalog.zeal]`) and the
/// `source` of a `[[docset]]`.
package enum CatalogSource: String, Sendable, Codable, CaseIterable, Comparable {
    /// Zeal's catalogue JSON (`https://api.zealdocs.org/v1/docsets`): names, titles, icons, `extra`, aliases.
    case zeal
    /// Kapeli's official feeds, one per docset (`<base>/<Name>.xml`); there is no index to list.
    case kapeli
    /// Dash user contributions (`…/user_contributed/build/index.json`).
    case contrib
    /// Dash cheat sheets (`…/cheatsheets/cheat.json`).
    case cheatsheets

    /// The order names are looked up in when a `[[docset]]` names no source.
    package static let lookupOrder: [CatalogSource] = [.zeal, .contrib, .cheatsheets]

    package static func < (lhs: Self, rhs: Self) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
