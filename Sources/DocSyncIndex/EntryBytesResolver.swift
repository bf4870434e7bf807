/// `EntryResolver`'s rules over bytes, for streams of millions of entries (`DocsetEntries`): markup removal, the
/// fragment split, percent-decoding and the URL's percent-encoding done in reused byte buffers, without the
/// intermediate `String`s of `EntryLocation` and `EntryResolver.Resolved`.
///
/// The fast path takes ASCII locations of local pages (what nearly every index holds); it answers nil for anything
/// else (a byte over 0x7F in the path or fragment, an `http(s)://` page), and the caller resolves that entry with
/// `EntryResolver` (the slow path). Both give the same page, fragment and URL (EntryBytesResolverTests).
struct EntryBytesResolver {
    /// One resolved entry.
    struct Output: Equatable {
        var page: String
        var fragment: String?
        var urlString: String
    }

    let layout: DocsetLayout
    private let prefix: [UInt8]
    private var path: [UInt8] = []
    private var fragment: [UInt8] = []
    private var decoded: [UInt8] = []
    private var url: [UInt8] = []

    /// A resolver for one docset: `encodedDocsetPrefix` is `EntryResolver.encodedPrefix(docsetPath:)`.
    init(layout: DocsetLayout, encodedDocsetPrefix: String) {
        self.layout = layout
        prefix = Array(encodedDocsetPrefix.utf8)
        for buffer in [\Self.path, \.fragment, \.decoded] { self[keyPath: buffer].reserveCapacity(512) }
        url.reserveCapacity(1024)
    }

    /// The page, fragment and URL of a raw index path (`searchIndex.path`, `ZFILEPATH.ZPATH`) and fragment
    /// (`ZANCHOR`; nil for Dash); nil when the slow path must resolve it.
    mutating func resolve(path rawPath: UnsafeBufferPointer<UInt8>, fragment rawFragment: UnsafeBufferPointer<UInt8>?)
        -> Output?
    {
        guard Self.isASCII(rawPath), rawFragment.map(Self.isASCII) ?? true else { return nil }
        Self.strippingMarkup(rawPath, into: &path)
        var hasFragment = false
        if let rawFragment {
            Self.strippingMarkup(rawFragment, into: &fragment)
            hasFragment = !fragment.isEmpty
        }
        var end = path.count
        if !hasFragment, let hash = path.firstIndex(of: UInt8(ascii: "#")) {
            fragment.removeAll(keepingCapacity: true)
            fragment.append(contentsOf: path[(hash + 1)...])
            hasFragment = !fragment.isEmpty
            end = hash
        }
        var start = 0
        while start < end && path[start] == UInt8(ascii: "/") { start += 1 }
        if Self.isOnline(path[..<end]) { return nil }

        // The page, percent-decoded when the result is valid UTF-8.
        let page: String
        var decodedPage = false
        if path[start..<end].contains(UInt8(ascii: "%")) {
            decoded.removeAll(keepingCapacity: true)
            Self.percentDecode(path[start..<end], into: &decoded)
            if let valid = String(validating: decoded, as: UTF8.self) {
                page = valid
                decodedPage = true
            } else {
                page = String(decoding: path[start..<end], as: UTF8.self)
            }
        } else {
            page = String(decoding: path[start..<end], as: UTF8.self)
        }

        url.removeAll(keepingCapacity: true)
        url.append(contentsOf: prefix)
        url.append(contentsOf: EntryResolver.folder(of: page, layout: layout).path.utf8)
        if decodedPage {
            Self.appendPercentEncoded(decoded[...], allowed: EntryResolver.pathAllowed, to: &url)
        } else {
            Self.appendPercentEncoded(path[start..<end], allowed: EntryResolver.pathAllowed, to: &url)
        }
        guard hasFragment else { return Output(page: page, fragment: nil, urlString: String(decoding: url, as: UTF8.self)) }
        url.append(UInt8(ascii: "#"))
        Self.appendEncodedFragment(fragment, to: &url)
        return Output(
            page: page, fragment: String(decoding: fragment, as: UTF8.self),
            urlString: String(decoding: url, as: UTF8.self))
    }

    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var all: UInt8 = 0
        for byte in bytes { all |= byte }
        return all < 0x80
    }

    private static let tag = Array("<dash_entry_".utf8)

    /// `EntryLocation.strippingMarkup` over bytes: `text` without `<dash_entry_…>` tags, into `out`.
    static func strippingMarkup(_ text: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        out.removeAll(keepingCapacity: true)
        guard text.contains(UInt8(ascii: "<")) else {
            out.append(contentsOf: text)
            return
        }
        var i = 0
        while i < text.count {
            if text[i] == UInt8(ascii: "<"), text.count - i >= tag.count,
                text[i..<(i + tag.count)].elementsEqual(tag)
            {
                var j = i + tag.count
                while j < text.count && text[j] != UInt8(ascii: ">") { j += 1 }
                i = j + 1
            } else {
                out.append(text[i])
                i += 1
            }
        }
    }

    /// An absolute `http://` or `https://` path (ASCII letters in any case).
    private static func isOnline(_ path: ArraySlice<UInt8>) -> Bool {
        func matches(_ scheme: StaticString) -> Bool {
            guard path.count >= scheme.utf8CodeUnitCount else { return false }
            var i = path.startIndex
            for index in 0..<scheme.utf8CodeUnitCount {
                let byte = path[i]
                let lower = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
                if lower != scheme.utf8Start[index] { return false }
                i += 1
            }
            return true
        }
        guard let first = path.first, first | 0x20 == UInt8(ascii: "h") else { return false }
        return matches("http://") || matches("https://")
    }

    /// `%XX` escapes decoded (any other `%` kept), as `EntryResolver.percentDecoded` does before its UTF-8 check.
    private static func percentDecode(_ bytes: ArraySlice<UInt8>, into out: inout [UInt8]) {
        var i = bytes.startIndex
        while i < bytes.endIndex {
            if bytes[i] == UInt8(ascii: "%"), i + 2 < bytes.endIndex, let high = EntryResolver.hex(bytes[i + 1]),
                let low = EntryResolver.hex(bytes[i + 2])
            {
                out.append(high << 4 | low)
                i += 3
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// Appends `bytes` with every byte outside `allowed` written `%XX` (uppercase hex).
    private static func appendPercentEncoded(_ bytes: ArraySlice<UInt8>, allowed: [Bool], to out: inout [UInt8]) {
        let plain = bytes.firstIndex { !allowed[Int($0)] } ?? bytes.endIndex
        out.append(contentsOf: bytes[..<plain])
        for byte in bytes[plain...] {
            if allowed[Int(byte)] {
                out.append(byte)
            } else {
                out.append(UInt8(ascii: "%"))
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 15)])
            }
        }
    }

    private static let appleRef = Array("//apple_ref".utf8)
    private static let dashRef = Array("//dash_ref".utf8)

    /// `EntryResolver.encodeFragment` over bytes: `//apple_ref` and `//dash_ref` anchors literal (every `%`
    /// encoded), any other fragment's valid `%XX` escapes kept.
    private static func appendEncodedFragment(_ fragment: [UInt8], to out: inout [UInt8]) {
        if fragment.starts(with: appleRef) || fragment.starts(with: dashRef) {
            appendPercentEncoded(fragment[...], allowed: EntryResolver.fragmentAllowed, to: &out)
            return
        }
        var i = 0
        while i < fragment.count {
            let byte = fragment[i]
            if byte == UInt8(ascii: "%"), i + 2 < fragment.count, EntryResolver.hex(fragment[i + 1]) != nil,
                EntryResolver.hex(fragment[i + 2]) != nil
            {
                out.append(contentsOf: fragment[i...(i + 2)])
                i += 3
            } else {
                appendPercentEncoded(fragment[i...i], allowed: EntryResolver.fragmentAllowed, to: &out)
                i += 1
            }
        }
    }
}
