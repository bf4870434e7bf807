import DocSync
import DocSyncIndex
internal import DocSyncSupport

extension DocSyncConfigurationLoader {
    /// `[[group]] name = "web", docsets = ["JavaScript", "CSS", "HTML"]`: a non-empty name used once (ignoring case),
    /// without `@`, and a non-empty list of docset names. A member naming a version (`"Python_3@3.12"`) of a
    /// `[[docset]]` (read before the groups) must name one that selection installs: one of its `versions` (any, when
    /// they include `"latest"`), or its pinned `version`.
    func readGroups(_ reader: inout TableReader, into config: inout DocSyncConfiguration) throws(DocSyncConfigurationError) {
        var members: [String: [String]] = [:]
        for var table in try reader.tables("group") {
            guard let name = try table.string("name"), !name.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw table.error("name", "missing (a group name such as \"web\", selected as --docset @web)")
            }
            if name.hasPrefix("@") || name.contains(where: \.isWhitespace) {
                throw table.error("name", "\"\(name.escapingControlCharacters)\" must not start with @ or hold spaces")
            }
            if members.keys.contains(where: { $0.lowercased() == name.lowercased() }) {
                throw table.error("name", "group \"\(name.escapingControlCharacters)\" is defined twice")
            }
            guard let array = try table.typed("docsets", "an array of docset names", { $0.array }) else {
                throw table.error("docsets", "missing (docset names, e.g. [\"JavaScript\", \"CSS\"])")
            }
            var docsets: [String] = []
            for (index, value) in array.enumerated() {
                guard let docset = value.string, !docset.isEmpty else {
                    throw table.error("docsets[\(index + 1)]", "expected a docset name")
                }
                if let problem = Self.versionProblem(docset, selections: config.docsets) {
                    throw table.error("docsets[\(index + 1)]", problem)
                }
                docsets.append(docset)
            }
            if docsets.isEmpty { throw table.error("docsets", "empty (name at least one docset)") }
            members[name] = docsets
            try table.finish()
        }
        config.groups = DocsetGroups(members)
    }

    /// Why the group member `member` (`NAME@VERSION`) names a version its `[[docset]]` selection never installs; nil
    /// when it names no version, no selection, or one the selection keeps.
    static func versionProblem(_ member: String, selections: [DocSyncConfiguration.DocsetSelection]) -> String? {
        guard let (name, version) = DocsetAddress.split(member),
            let selection = selections.first(where: { $0.name.lowercased() == name.lowercased() })
        else { return nil }
        let kept = selection.versions.isEmpty ? selection.version.map { [$0] } ?? [] : selection.versions
        guard !kept.isEmpty, !kept.contains("latest") else { return nil }  // the latest: any version may be it
        let wanted = DocsetVersion(dash: version)
        if kept.contains(where: { $0.lowercased() == version.lowercased() || DocsetVersion(dash: $0) == wanted }) {
            return nil
        }
        let key = selection.versions.isEmpty ? "version" : "versions"
        let listed = kept.map { "\"\($0.escapingControlCharacters)\"" }.joined(separator: ", ")
        let docset = selection.name.escapingControlCharacters
        return "\"\(member.escapingControlCharacters)\" names a version [[docset]] \"\(docset)\" does not install"
            + " (its \(key): \(listed))"
    }
}
