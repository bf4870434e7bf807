/// Folder names for docsets: `<name>.docset` in the root must be a single, portable, non-hidden path component.
package enum DocsetName {
    /// Keeps letters, digits, space and `+-_.()`; replaces anything else with `_`; no leading dot or space;
    /// drops a trailing `.docset`; at most 200 UTF-8 bytes; `docset` when nothing is left.
    package static func safe(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            let ok =
                scalar.properties.isAlphabetic || scalar.properties.numericType != nil
                || " +-_.()".unicodeScalars.contains(scalar)
            out.append(ok ? scalar : "_")
        }
        var name = String(out)
        if name.hasSuffix(".docset") { name.removeLast(".docset".count) }
        while let first = name.first, first == "." || first == " " { name.removeFirst() }
        while let last = name.last, last == " " || last == "." { name.removeLast() }
        while name.utf8.count > 200 { name.removeLast() }
        return name.isEmpty ? "docset" : name
    }
}
