import DocSync
import DocSyncSupport

/// The `feed parse --json` contract: exactly one object, keys in contract order (`schema` first), absent values
/// omitted, dates as `YYYY-MM-DDTHH:MM:SSZ`, lengths as numbers. Written by hand rather than with `DocSyncJSON`'s
/// encoder: a 100 MB feed's document is rendered without a second in-memory tree (LargeFeedMemoryTests).
enum FeedJSON {
    static func encode(_ document: ParsedFeed) -> String {
        object(document).rendered(indent: "")
    }

    static func object(_ document: ParsedFeed) -> FeedJSONValue {
        .object([
            ("schema", .number(Int64(DocSyncJSON.schema))),
            ("format", .string(document.format.rawValue)),
            ("id", document.id.map(FeedJSONValue.string)),
            ("title", document.title.map(FeedJSONValue.string)),
            ("updated", document.updated.map { .string(ParsedFeed.dateText($0)) }),
            ("links", .array(document.links.map(object))),
            ("entries", .array(document.entries.map(object))),
        ])
    }

    static func object(_ entry: ParsedFeed.Entry) -> FeedJSONValue {
        .object([
            ("id", entry.id.map(FeedJSONValue.string)),
            ("title", entry.title.map(FeedJSONValue.string)),
            ("updated", entry.updated.map { .string(ParsedFeed.dateText($0)) }),
            ("identifier", entry.identifier.map(FeedJSONValue.string)),
            ("version", entry.version.map(FeedJSONValue.string)),
            ("revision", entry.revision.map(FeedJSONValue.string)),
            ("links", .array(entry.links.map(object))),
            ("archives", .array(entry.archives.map(object))),
            ("sha256", entry.sha256.map(FeedJSONValue.string)),
        ])
    }

    static func object(_ link: ParsedFeed.Link) -> FeedJSONValue {
        .object([
            ("href", .string(link.href)),
            ("rel", .string(link.rel)),
            ("type", link.type.map(FeedJSONValue.string)),
            ("length", link.length.map(FeedJSONValue.number)),
            ("title", link.title.map(FeedJSONValue.string)),
            ("hreflang", link.hreflang.map(FeedJSONValue.string)),
        ])
    }

    static func object(_ archive: ParsedFeed.Archive) -> FeedJSONValue {
        .object([
            ("url", .string(archive.url)),
            ("type", archive.type.map(FeedJSONValue.string)),
            ("length", archive.length.map(FeedJSONValue.number)),
        ])
    }
}

/// A JSON value whose objects keep their key order (members whose value is nil are left out).
indirect enum FeedJSONValue: Equatable {
    case string(String)
    case number(Int64)
    case array([FeedJSONValue])
    case object([(String, FeedJSONValue?)])

    static func == (lhs: Self, rhs: Self) -> Bool { lhs.rendered(indent: "") == rhs.rendered(indent: "") }

    /// Pretty-printed with two-space indentation.
    func rendered(indent: String) -> String {
        let inner = indent + "  "
        switch self {
        case .string(let text): return Self.quoted(text)
        case .number(let value): return String(value)
        case .array(let items):
            guard !items.isEmpty else { return "[]" }
            return "[\n" + items.map { inner + $0.rendered(indent: inner) }.joined(separator: ",\n") + "\n\(indent)]"
        case .object(let members):
            let present = members.compactMap { key, value in value.map { (key, $0) } }
            guard !present.isEmpty else { return "{}" }
            return "{\n"
                + present.map { "\(inner)\(Self.quoted($0)): \($1.rendered(indent: inner))" }.joined(separator: ",\n")
                + "\n\(indent)}"
        }
    }

    /// RFC 8259 string: `"` and `\` escaped, control characters as `\n`, `\t`, … or `\u00XX` (`JSONText`).
    static func quoted(_ text: String) -> String {
        var result = ""
        JSONText.appendString(text, to: &result)
        return result
    }
}
