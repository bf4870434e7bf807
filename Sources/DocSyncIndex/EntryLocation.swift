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
            if let hash = Self.firstHash(in: page) {
                let after = String(page[page.index(after: hash)...])
                anchor = after.isEmpty ? nil : after
                page = String(page[..<hash])
            }
        }
        self.init(path: page, fragment: anchor)
    }

    /// Where the first `#` Character of `text` is. A byte scan when `text` is ASCII (each byte is a Character
    /// then); otherwise Character by Character (a `#` joined to a following combining mark is no `#`). Indexes hold
    /// ASCII paths almost always, and walking Characters was a fifth of a derived index's build time.
    static func firstHash(in text: String) -> String.Index? {
        enum Scan { case ascii(Int?), other }
        let scan = text.utf8.withContiguousStorageIfAvailable { bytes -> Scan in
            var hash: Int?
            for i in bytes.indices {
                let byte = bytes[i]
                if byte >= 0x80 { return .other }
                if byte == UInt8(ascii: "#"), hash == nil { hash = i }
            }
            return .ascii(hash)
        }
        if case .ascii(let offset)? = scan {
            return offset.map { text.utf8.index(text.utf8.startIndex, offsetBy: $0) }
        }
        return text.firstIndex(of: "#")
    }

    /// `text` without `<dash_entry_…>` tags (each from `<dash_entry_` to the next `>`; an unterminated tag takes
    /// the rest). A byte scan: Foundation's substring search bridges to NSString, too slow for millions of entries.
    package static func strippingMarkup(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "<")) else { return text }
        let bytes = Array(text.utf8)
        let tag = Array("<dash_entry_".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var found = false
        var i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "<"), bytes.count - i >= tag.count,
                bytes[i..<(i + tag.count)].elementsEqual(tag)
            {
                found = true
                var j = i + tag.count
                while j < bytes.count && bytes[j] != UInt8(ascii: ">") { j += 1 }
                i = j + 1
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return found ? String(decoding: out, as: UTF8.self) : text
    }

    /// The URL a reader opens, in a docset of `layout` (`EntryResolver`): `file://<docset>/Contents/Resources/
    /// Documents/<page>#<fragment>` for Dash's layout, the page's file under `Documentation/` for Apple's, or the
    /// path itself when it is an absolute http(s) URL (online docsets).
    package func url(docsetPath: String, layout: DocsetLayout = .dash) -> URL {
        EntryResolver.resolve(self, layout: layout).url(docsetPath: docsetPath)
    }
}
