import DocSyncSupport
import Foundation

/// Where one index entry's page is, for every docset layout (`DocsetLayout`): the one resolver behind search hits,
/// `entries` and `status`. A pure function; its rules follow Zeal (`Docset::createPageUrl`, zealdocs/zeal
/// `src/libs/registry/docset.cpp`):
///
/// 1. `<dash_entry_…>` markup is removed and the fragment split off (`EntryLocation(rawPath:rawFragment:)`).
/// 2. An absolute `http(s)://` path is an online page: its URL is the path itself.
/// 3. The page is a URL path relative to `Contents/Resources/Documents`: leading `/` are dropped and `%XX` escapes
///    decoded (Zeal sets it with `QUrl::TolerantMode`; a `%` not followed by two hex digits stays as it is).
/// 4. The file: under `Contents/Resources/Documentation/` for Apple's layout — a page starting `Documentation/`
///    when `Contents/Resources/Documentation` exists and `Documents/Documentation` is not the publisher's own
///    folder (Core Data `ZFILEPATH` paths are relative to `Contents/Resources`), or any page when there is no real
///    `Documents/` folder — else under `Contents/Resources/Documents/`.
///
/// The file is always the publisher's, never reached through docsync's own links, so the URL opens in any
/// browser; the page stays what Zeal resolves under `Documents/` (through those links).
package enum EntryResolver {
    /// One resolved entry location.
    package struct Resolved: Sendable, Equatable {
        /// The page relative to `Contents/Resources/Documents` (decoded, no fragment); for an online page, its URL.
        package var page: String
        /// The fragment as the index gives it (markup removed); nil when none.
        package var fragment: String?
        /// The file relative to the docset folder (`Contents/Resources/Documents/c/printf.html`); nil for an online
        /// page.
        package var file: String?

        package init(page: String, fragment: String?, file: String?) {
            self.page = page
            self.fragment = fragment
            self.file = file
        }

        /// `file://<docsetPath>/<file>#<fragment>`, or the online page's URL with the fragment.
        package func url(docsetPath: String) -> URL {
            guard file != nil else { return remoteURL() }
            let text = urlString(encodedDocsetPrefix: EntryResolver.encodedPrefix(docsetPath: docsetPath))
            return URL(string: text) ?? URL(fileURLWithPath: docsetPath)
        }

        /// The URL's text without building a `URL` (for streams of millions of entries): `encodedDocsetPrefix` is
        /// `EntryResolver.encodedPrefix(docsetPath:)`, computed once per docset.
        package func urlString(encodedDocsetPrefix: String) -> String {
            guard let file else { return remoteURL().absoluteString }
            var text = encodedDocsetPrefix
            EntryResolver.appendPercentEncoded(file, allowed: EntryResolver.pathAllowed, to: &text)
            if let fragment, !fragment.isEmpty {
                text += "#"
                text += EntryResolver.encodeFragment(fragment)
            }
            return text
        }

        private func remoteURL() -> URL {
            guard
                let remote = URL(string: page)
                    ?? URL(
                        string: page.addingPercentEncoding(
                            withAllowedCharacters: .urlQueryAllowed) ?? "")
            else { return URL(fileURLWithPath: "/") }
            guard let fragment, !fragment.isEmpty,
                var components = URLComponents(url: remote, resolvingAgainstBaseURL: false)
            else { return remote }
            components.percentEncodedFragment = EntryResolver.encodeFragment(fragment)
            return components.url ?? remote
        }
    }

    /// `file://` and the percent-encoded `docsetPath` with a trailing `/`.
    package static func encodedPrefix(docsetPath: String) -> String {
        var text = "file://"
        appendPercentEncoded(docsetPath.hasSuffix("/") ? docsetPath : docsetPath + "/", allowed: pathAllowed, to: &text)
        return text
    }

    /// ASCII bytes kept as they are in a URL path (`CharacterSet.urlPathAllowed`): letters, digits, `-._~`,
    /// `!$&'()*+,;=:@` and `/`.
    static let pathAllowed: [Bool] = allowedTable("-._~!$&'()*+,;=:@/")
    /// ASCII bytes kept as they are in a fragment (`CharacterSet.urlFragmentAllowed`, without `%`).
    static let fragmentAllowed: [Bool] = allowedTable("-._~!$&'()*+,;=:@/?")

    private static func allowedTable(_ punctuation: String) -> [Bool] {
        var table = [Bool](repeating: false, count: 256)
        for byte in UInt8(ascii: "a")...UInt8(ascii: "z") { table[Int(byte)] = true }
        for byte in UInt8(ascii: "A")...UInt8(ascii: "Z") { table[Int(byte)] = true }
        for byte in UInt8(ascii: "0")...UInt8(ascii: "9") { table[Int(byte)] = true }
        for byte in punctuation.utf8 { table[Int(byte)] = true }
        return table
    }

    /// Appends `text` with every byte outside `allowed` written `%XX` (uppercase hex).
    static func appendPercentEncoded(_ text: String, allowed: [Bool], to out: inout String) {
        let plain =
            text.utf8.withContiguousStorageIfAvailable { $0.allSatisfy { allowed[Int($0)] } }
            ?? text.utf8.allSatisfy { allowed[Int($0)] }
        if plain {
            out += text
            return
        }
        out += PercentEncoding.encoded(text.utf8) { allowed[Int($0)] }
    }

    /// Resolves a stored location (markup already removed) in a docset of `layout`.
    package static func resolve(_ location: EntryLocation, layout: DocsetLayout) -> Resolved {
        if let first = location.path.utf8.first, first | 0x20 == UInt8(ascii: "h"),
            location.path.lowercased().hasPrefix("http://") || location.path.lowercased().hasPrefix("https://")
        {
            return Resolved(page: location.path, fragment: location.fragment, file: nil)
        }
        var page = Substring(location.path)
        while page.first == "/" { page = page.dropFirst() }
        let decoded = percentDecoded(String(page))
        return Resolved(page: decoded, fragment: location.fragment, file: file(of: decoded, layout: layout))
    }

    /// Resolves a raw index path and fragment (`searchIndex.path`, or `ZFILEPATH.ZPATH` and `ZANCHOR`).
    package static func resolve(rawPath: String, rawFragment: String?, layout: DocsetLayout) -> Resolved {
        resolve(EntryLocation(rawPath: rawPath, rawFragment: rawFragment), layout: layout)
    }

    /// The folder a page's file is in, relative to the docset folder.
    enum Folder {
        /// `Contents/Resources/`: the page starts `Documentation/`.
        case resources
        /// `Contents/Resources/Documentation/`.
        case documentation
        /// `Contents/Resources/Documents/`.
        case documents

        /// The folder's path relative to the docset folder, with a trailing `/`.
        var path: String {
            switch self {
            case .resources: "Contents/Resources/"
            case .documentation: "Contents/Resources/Documentation/"
            case .documents: "Contents/Resources/Documents/"
            }
        }
    }

    /// The file of a decoded page, relative to the docset folder.
    static func file(of page: String, layout: DocsetLayout) -> String {
        folder(of: page, layout: layout).path + page
    }

    /// The folder holding a decoded page's file.
    static func folder(of page: String, layout: DocsetLayout) -> Folder {
        if layout.documentation == .directory {
            if page.hasPrefix("Documentation/") && layout.documentsDocumentation != .directory { return .resources }
            if layout.documents != .directory { return .documentation }
        }
        return .documents
    }

    /// `%XX` escapes decoded when the result is valid UTF-8; any other `%` kept as it is.
    static func percentDecoded(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return text }
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "%"), i + 2 < bytes.count,
                let high = bytes[i + 1].hexDigitValue, let low = bytes[i + 2].hexDigitValue
            {
                out.append(high << 4 | low)
                i += 3
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return String(validating: out, as: UTF8.self) ?? text
    }

    /// Zeal's fragment rule: `//apple_ref` and `//dash_ref` anchors are literal text (every `%` encoded, so that
    /// the browser matches the anchor's `%3A` as written); any other fragment is already URL-encoded (valid `%XX`
    /// kept, other characters encoded as needed).
    static func encodeFragment(_ fragment: String) -> String {
        var out = ""
        if fragment.hasPrefix("//apple_ref") || fragment.hasPrefix("//dash_ref") {
            appendPercentEncoded(fragment, allowed: fragmentAllowed, to: &out)
            return out
        }
        let bytes = Array(fragment.utf8)
        var i = 0
        var run = ""
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "%"), i + 2 < bytes.count, bytes[i + 1].hexDigitValue != nil,
                bytes[i + 2].hexDigitValue != nil
            {
                appendPercentEncoded(run, allowed: fragmentAllowed, to: &out)
                run = ""
                out += String(decoding: bytes[i...(i + 2)], as: UTF8.self)
                i += 3
            } else {
                var end = i + 1
                while end < bytes.count && bytes[end] != UInt8(ascii: "%") { end += 1 }
                run += String(decoding: bytes[i..<end], as: UTF8.self)
                i = end
            }
        }
        appendPercentEncoded(run, allowed: fragmentAllowed, to: &out)
        return out
    }
}
