import DocSync

extension DocSyncConfiguration {
    /// `--docset` values with every `@group` expanded; an unknown group is a clear error (exit 64) naming the
    /// configuration key that would define it.
    func expandDocsetSelectors(_ selectors: [String], command: String) throws -> [String] {
        let expanded = groups.expand(selectors)
        if let unknown = expanded.unknown.first {
            let known = groups.members.keys.sorted().map { "@\($0)" }.joined(separator: ", ")
            printError(
                "docsync \(command): no group @\(unknown.escapingControlCharacters) (define it in the configuration: "
                    + "[[group]] name = \"\(unknown.escapingControlCharacters)\", docsets = [...])"
                    + (known.isEmpty ? "" : "; known groups: \(known.escapingControlCharacters)"))
            throw ExitStatus.usage
        }
        return expanded.docsets
    }
}
