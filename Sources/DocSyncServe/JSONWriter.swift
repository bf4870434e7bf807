import DocSyncSupport

/// JSON text written by hand (search answers at hundreds per second, entries by the million).
enum JSONWriter {
    /// Appends `text` as a JSON string literal (control characters as `\u00XX`; `<` and `>` escaped too, so JSON
    /// embedded in HTML cannot close a tag).
    static func appendString(_ text: String, to out: inout String) {
        JSONText.appendString(text, to: &out, htmlSafe: true)
    }

    /// `{"key":value,…}` from already-encoded values, keys in the order given.
    static func object(_ fields: [(String, String)]) -> String {
        var out = "{"
        for (index, (key, value)) in fields.enumerated() {
            if index > 0 { out += "," }
            appendString(key, to: &out)
            out += ":"
            out += value
        }
        return out + "}"
    }

    static func string(_ text: String) -> String {
        var out = ""
        appendString(text, to: &out)
        return out
    }

    static func string(_ text: String?) -> String { text.map(string) ?? "null" }
}

/// HTML text escaping for the server-rendered page.
enum HTMLText {
    static func escaped(_ text: String) -> String {
        text.replacingScalars { scalar in
            switch scalar {
            case "&": "&amp;"
            case "<": "&lt;"
            case ">": "&gt;"
            case "\"": "&quot;"
            case "'": "&#39;"
            case _ where scalar.value < 0x20 && scalar != "\n" && scalar != "\t": "\u{FFFD}"
            default: nil
            }
        }
    }
}
