import DocSync
import DocSyncIndex
internal import DocSyncSupport

extension DocSyncConfigurationLoader {
    /// `[[group]] name = "web", docsets = ["JavaScript", "CSS", "HTML"]`: a non-empty name used once (ignoring case),
    /// without `@`, and a non-empty list of docset names.
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
                docsets.append(docset)
            }
            if docsets.isEmpty { throw table.error("docsets", "empty (name at least one docset)") }
            members[name] = docsets
            try table.finish()
        }
        config.groups = DocsetGroups(members)
    }
}
