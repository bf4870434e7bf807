import Foundation

/// Where an entry points inside its docset, as its index stores it: a page path (relative to
/// `Contents/Resources/Documents`, maybe percent-encoded; `EntryResolver` finds the file) and an optional fragment.
/// Dash indexes keep the fragment in `path` after `#` and may prefix `<dash_entry_…>` tags (menu descriptions and
/// original names for Dash's UI); Core Data indexes keep the fragment in its own column.
package struct EntryLocation: Sendable, Equatable {
    package var path: String
    package var fragment: String?

    package init(path: String, fragment: String?) {
        self.path = path
        self.fragment = fragment
    }

    /// Strips every `<dash_entry_…>` tag, then splits `path` at its first `#` when `fragment` is empty.
    package init(rawPath: String, rawFragment: String?) {
        var page = Self.strippingMarkup(rawPath)
        var anchor = rawFragment.map(Self.strippingMarkup)
        if anchor?.isEmpty ?? true {
            anchor = nil
            if let hash = page.firstIndex(of: "#") {
                let after = String(page[page.index(after: hash)...])
                anchor = after.isEmpty ? nil : after
                page = String(page[..<hash])
            }
        }
        self.init(path: page, fragment: anchor)
    }

    /// `text` without `<dash_entry_…>` tags (each from `<dash_entry_` to the next `>`).
    package static func strippingMarkup(_ text: String) -> String {
        guard text.contains("<dash_entry_") else { return text }
        var out = ""
        var rest = Substring(text)
        while let open = rest.range(of: "<dash_entry_") {
            out += rest[..<open.lowerBound]
            guard let close = rest[open.upperBound...].firstIndex(of: ">") else {
                rest = rest[rest.endIndex...]
                break
            }
            rest = rest[rest.index(after: close)...]
        }
        return out + rest
    }

    /// The URL a reader opens, in a docset of `layout` (`EntryResolver`): `file://<docset>/Contents/Resources/
    /// Documents/<page>#<fragment>` for Dash's layout, the page's file under `Documentation/` for Apple's, or the
    /// path itself when it is an absolute http(s) URL (online docsets).
    package func url(docsetPath: String, layout: DocsetLayout = .dash) -> URL {
        EntryResolver.resolve(self, layout: layout).url(docsetPath: docsetPath)
    }
}
