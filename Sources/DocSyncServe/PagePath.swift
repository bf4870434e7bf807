import DocSyncSupport

/// A request path under `/d/`, split and decoded: `/d/<Name>/<page>` (the version installed now) or
/// `/d/<Name>@<ID>/<page>` (one installed version, kept for its grace period). A pure function; the page itself is
/// checked again, and resolved beneath the docset by the kernel, by `InstalledDocset.contents(of:)`.
package struct PagePath: Sendable, Equatable {
    /// The docset's name (`<root>/<name>.docset`).
    package var name: String
    /// The version folder's name (`NAME@ID`) for a pinned URL; nil for the current version.
    package var version: String?
    /// The page relative to the documents folder, percent-decoded (`index.html` for a bare `/d/<Name>/`).
    package var page: String
    /// The page as it came, still percent-encoded (for redirects).
    package var encodedPage: Substring

    /// The longest request path accepted (longer: 404 without touching the file system).
    package static let maximumBytes = 4096

    /// Parses the part after `/d/`; nil for anything that is not a page path (→ 404).
    package init?(afterPrefix raw: Substring) {
        guard raw.utf8.count <= Self.maximumBytes else { return nil }
        let slash = raw.utf8.firstIndex(of: UInt8(ascii: "/"))  // bytes, not Characters: no grapheme breaking
        let first = slash.map { raw[..<$0] } ?? raw
        encodedPage = slash.map { raw[raw.utf8.index(after: $0)...] } ?? ""
        guard let segment = Self.percentDecoded(first), !segment.isEmpty else { return nil }
        if let at = segment.utf8.lastIndex(of: UInt8(ascii: "@")) {
            let name = String(segment[..<at])
            let id = segment[segment.utf8.index(after: at)...]
            guard Self.isName(name), !id.isEmpty, id.first != ".", id.utf8.allSatisfy(Self.isIDByte) else { return nil }
            self.name = name
            self.version = segment
        } else {
            guard Self.isName(segment) else { return nil }
            self.name = segment
            self.version = nil
        }
        guard slash != nil else { return nil }  // `/d/Name` without the slash: the caller redirects
        guard let page = Self.percentDecoded(encodedPage) else { return nil }
        self.page = page.isEmpty || page.hasSuffix("/") ? page + "index.html" : page
    }

    /// A docset folder name as docsync writes them: no `/`, NUL or control characters, not `.`/`..`, not hidden.
    static func isName(_ text: String) -> Bool {
        guard !text.isEmpty, text.utf8.count <= 255, !text.hasPrefix(".") else { return false }
        // Bytes: a control character, `/` or `\` is one byte in UTF-8, and no byte of a longer scalar is below 0x80.
        return text.utf8.allSatisfy {
            $0 >= 0x20 && $0 != 0x7f && $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "\\")
        }
    }

    /// A byte of a version ID: ASCII letters, digits, `-`, `_`, `.`.
    static func isIDByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."):
            true
        default: false
        }
    }

    /// `%XX` decoded; nil for a malformed escape or bytes that are not UTF-8. (`+` stays a plus in a path.)
    package static func percentDecoded(_ text: Substring) -> String? {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return String(text) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(\.hexDigitValue),
                let low = iterator.next().flatMap(\.hexDigitValue)
            else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
