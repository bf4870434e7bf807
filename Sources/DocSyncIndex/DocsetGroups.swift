/// Named groups of docsets for scoping a search or a listing: `@web` stands for its docsets
/// (`[[group]] name = "web", docsets = ["JavaScript", "CSS", "HTML"]` in `docsync.toml`). Names and members are
/// matched ignoring case.
public struct DocsetGroups: Sendable, Equatable {
    /// Group name → docset names, as configured.
    public var members: [String: [String]]

    /// Groups from `members` (group name → docset names).
    public init(_ members: [String: [String]] = [:]) {
        self.members = members
    }

    /// The docsets of group `name` (without `@`); nil when there is no such group.
    public func docsets(of name: String) -> [String]? {
        if let exact = members[name] { return exact }
        return members.first { $0.key.lowercased() == name.lowercased() }?.value
    }

    /// `selectors` with every `@group` replaced by its docsets; plain names kept. Unknown groups are returned in
    /// `unknown` (and select nothing).
    public func expand(_ selectors: [String]) -> (docsets: [String], unknown: [String]) {
        var selected: [String] = []
        var unknown: [String] = []
        for selector in selectors {
            guard selector.hasPrefix("@") else {
                selected.append(selector)
                continue
            }
            let name = String(selector.dropFirst())
            if let members = docsets(of: name) { selected += members } else { unknown.append(name) }
        }
        return (selected, unknown)
    }
}
