import DocSyncSupport

#if canImport(Glibc)
    import Glibc
#endif

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
    private let buffers: Buffers

    /// A resolver for one docset: `encodedDocsetPrefix` is `EntryResolver.encodedPrefix(docsetPath:)`.
    init(layout: DocsetLayout, encodedDocsetPrefix: String) {
        self.layout = layout
        buffers = Buffers(prefix: Array(encodedDocsetPrefix.utf8))
    }

    /// The page, fragment and URL of a raw index path (`searchIndex.path`, `ZFILEPATH.ZPATH`) and fragment
    /// (`ZANCHOR`; nil for Dash); nil when the slow path must resolve it.
    func resolve(path rawPath: UnsafeBufferPointer<UInt8>, fragment rawFragment: UnsafeBufferPointer<UInt8>?)
        -> Output?
    {
        let batch = EntryBatch(entries: 1)
        guard let spans = resolve(path: rawPath, fragment: rawFragment, into: batch) else { return nil }
        func string(_ span: EntryBatch.Span) -> String { String(decoding: batch.buffer(span), as: UTF8.self) }
        return Output(
            page: string(spans.page), fragment: spans.fragment.start < 0 ? nil : string(spans.fragment),
            urlString: string(spans.url))
    }

    /// ``resolve(path:fragment:)``'s page, fragment and URL appended to `batch` as UTF-8 (no `String` built);
    /// their spans (the fragment's `EntryBatch.Span.absent` for none), or nil when the slow path must resolve it.
    func resolve(
        path rawPath: UnsafeBufferPointer<UInt8>, fragment rawFragment: UnsafeBufferPointer<UInt8>?,
        into batch: EntryBatch
    ) -> (page: EntryBatch.Span, fragment: EntryBatch.Span, url: EntryBatch.Span)? {
        let b = buffers
        guard rawPath.count <= Buffers.field, (rawFragment?.count ?? 0) <= Buffers.field else { return nil }
        guard Self.isASCII(rawPath), rawFragment.map(Self.isASCII) ?? true else { return nil }
        let pathCount = Self.strippingMarkup(rawPath, into: b.path)
        var fragment = UnsafeBufferPointer<UInt8>(start: b.fragment, count: 0)
        if let rawFragment {
            fragment = UnsafeBufferPointer(start: b.fragment, count: Self.strippingMarkup(rawFragment, into: b.fragment))
        }
        var end = pathCount
        if fragment.isEmpty, let hash = Self.index(of: UInt8(ascii: "#"), in: b.path, count: pathCount) {
            fragment = UnsafeBufferPointer(start: b.path + hash + 1, count: pathCount - hash - 1)
            end = hash
        }
        var start = 0
        while start < end && b.path[start] == UInt8(ascii: "/") { start += 1 }
        let raw = UnsafeBufferPointer(start: b.path + start, count: end - start)
        if start == 0 && Self.isOnline(raw) { return nil }

        // The page, percent-decoded when the result is valid UTF-8.
        var page = raw
        if Self.index(of: UInt8(ascii: "%"), in: b.path + start, count: end - start) != nil {
            let decoded = UnsafeBufferPointer(start: b.decoded, count: Self.percentDecode(raw, into: b.decoded))
            if String(validating: decoded, as: UTF8.self) != nil { page = decoded }
        }

        var n = b.prefixCount  // the URL buffer starts with the docset's prefix
        let folder: StaticString
        switch pageFolder(of: page) {
        case .resources: folder = "Contents/Resources/"
        case .documentation: folder = "Contents/Resources/Documentation/"
        case .documents: folder = "Contents/Resources/Documents/"
        }
        (b.url + n).initialize(from: folder.utf8Start, count: folder.utf8CodeUnitCount)
        n += folder.utf8CodeUnitCount
        n = Self.percentEncode(page, allowed: b.pathAllowed, to: b.url, at: n)
        if !fragment.isEmpty {
            b.url[n] = UInt8(ascii: "#")
            n = Self.encodeFragment(fragment, buffers: b, at: n + 1)
        }
        let pageSpan = batch.append(page)
        let fragmentSpan = fragment.isEmpty ? EntryBatch.Span.absent : batch.append(fragment)
        return (pageSpan, fragmentSpan, batch.append(UnsafeBufferPointer(start: b.url, count: n)))
    }

    /// `EntryResolver.folder(of:layout:)` for a page's UTF-8 (a `String` only when a non-ASCII byte follows
    /// `Documentation/`, where `hasPrefix` compares characters).
    private func pageFolder(of page: UnsafeBufferPointer<UInt8>) -> EntryResolver.Folder {
        guard layout.documentation == .directory else { return .documents }
        let prefix: StaticString = "Documentation/"
        let count = prefix.utf8CodeUnitCount
        if page.count >= count && memcmp(page.baseAddress!, prefix.utf8Start, count) == 0
            && page.count > count && page[count] >= 0x80
        {
            return EntryResolver.folder(of: String(decoding: page, as: UTF8.self), layout: layout)
        }
        if page.count >= count && memcmp(page.baseAddress!, prefix.utf8Start, count) == 0
            && layout.documentsDocumentation != .directory
        {
            return .resources
        }
        if layout.documents != .directory { return .documentation }
        return .documents
    }

    /// Scratch memory for one resolver: fields of at most `field` bytes, the URL of two such fields encoded.
    final class Buffers {
        static let field = SourceIndex.maxFieldBytes
        let path = UnsafeMutablePointer<UInt8>.allocate(capacity: field)
        let fragment = UnsafeMutablePointer<UInt8>.allocate(capacity: field)
        let decoded = UnsafeMutablePointer<UInt8>.allocate(capacity: field)
        let url: UnsafeMutablePointer<UInt8>
        let prefixCount: Int
        let pathAllowed = UnsafeMutablePointer<Bool>.allocate(capacity: 256)
        let fragmentAllowed = UnsafeMutablePointer<Bool>.allocate(capacity: 256)

        init(prefix: [UInt8]) {
            prefixCount = prefix.count
            url = .allocate(capacity: prefix.count + 64 + 6 * Self.field + 1)
            url.initialize(from: prefix, count: prefix.count)
            pathAllowed.initialize(from: EntryResolver.pathAllowed, count: 256)
            fragmentAllowed.initialize(from: EntryResolver.fragmentAllowed, count: 256)
        }

        deinit {
            for buffer in [path, fragment, decoded, url] { buffer.deallocate() }
            pathAllowed.deallocate()
            fragmentAllowed.deallocate()
        }
    }

    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var all: UInt8 = 0
        for byte in bytes { all |= byte }
        return all < 0x80
    }

    private static func index(of byte: UInt8, in bytes: UnsafePointer<UInt8>, count: Int) -> Int? {
        guard count > 0, let found = memchr(bytes, Int32(byte), count) else { return nil }
        return UnsafeRawPointer(bytes).distance(to: UnsafeRawPointer(found))
    }

    private static let tag: StaticString = "<dash_entry_"

    /// `EntryLocation.strippingMarkup` over bytes: `text` without `<dash_entry_…>` tags, into `out` (at least
    /// `text.count` bytes); returns the count written.
    static func strippingMarkup(_ text: UnsafeBufferPointer<UInt8>, into out: UnsafeMutablePointer<UInt8>) -> Int {
        guard let base = text.baseAddress else { return 0 }
        let count = text.count
        var i = 0
        var n = 0
        while let lt = index(of: UInt8(ascii: "<"), in: base + i, count: count - i) {
            (out + n).update(from: base + i, count: lt)
            n += lt
            i += lt
            if count - i >= tag.utf8CodeUnitCount && memcmp(base + i, tag.utf8Start, tag.utf8CodeUnitCount) == 0 {
                let after = i + tag.utf8CodeUnitCount
                i = index(of: UInt8(ascii: ">"), in: base + after, count: count - after).map { after + $0 + 1 } ?? count
            } else {
                out[n] = UInt8(ascii: "<")
                n += 1
                i += 1
            }
        }
        (out + n).update(from: base + i, count: count - i)
        return n + count - i
    }

    /// An absolute `http://` or `https://` path (ASCII letters in any case).
    private static func isOnline(_ path: UnsafeBufferPointer<UInt8>) -> Bool {
        func matches(_ scheme: StaticString) -> Bool {
            guard path.count >= scheme.utf8CodeUnitCount else { return false }
            for index in 0..<scheme.utf8CodeUnitCount {
                let byte = path[index]
                let lower = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
                if lower != scheme.utf8Start[index] { return false }
            }
            return true
        }
        guard let first = path.first, first | 0x20 == UInt8(ascii: "h") else { return false }
        return matches("http://") || matches("https://")
    }

    /// `%XX` escapes decoded (any other `%` kept), as `EntryResolver.percentDecoded` does before its UTF-8 check;
    /// returns the count written.
    private static func percentDecode(_ bytes: UnsafeBufferPointer<UInt8>, into out: UnsafeMutablePointer<UInt8>)
        -> Int
    {
        var i = 0
        var n = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "%"), i + 2 < bytes.count,
                let high = bytes[i + 1].hexDigitValue, let low = bytes[i + 2].hexDigitValue
            {
                out[n] = high << 4 | low
                i += 3
            } else {
                out[n] = bytes[i]
                i += 1
            }
            n += 1
        }
        return n
    }

    /// Writes `bytes` at `out + n` with every byte outside `allowed` written `%XX` (uppercase hex); returns the
    /// new end.
    private static func percentEncode(
        _ bytes: UnsafeBufferPointer<UInt8>, allowed: UnsafePointer<Bool>, to out: UnsafeMutablePointer<UInt8>,
        at start: Int
    ) -> Int {
        var n = start
        for byte in bytes {
            if allowed[Int(byte)] {
                out[n] = byte
                n += 1
            } else {
                PercentEncoding.write(byte, to: out + n)
                n += 3
            }
        }
        return n
    }

    private static let appleRef: StaticString = "//apple_ref"
    private static let dashRef: StaticString = "//dash_ref"

    private static func starts(_ bytes: UnsafeBufferPointer<UInt8>, with prefix: StaticString) -> Bool {
        bytes.count >= prefix.utf8CodeUnitCount
            && memcmp(bytes.baseAddress!, prefix.utf8Start, prefix.utf8CodeUnitCount) == 0
    }

    /// `EntryResolver.encodeFragment` over bytes, written at `buffers.url + start`: `//apple_ref` and `//dash_ref`
    /// anchors literal (every `%` encoded), any other fragment's valid `%XX` escapes kept; returns the new end.
    private static func encodeFragment(_ fragment: UnsafeBufferPointer<UInt8>, buffers: Buffers, at start: Int)
        -> Int
    {
        let out = buffers.url
        if starts(fragment, with: appleRef) || starts(fragment, with: dashRef) {
            return percentEncode(fragment, allowed: buffers.fragmentAllowed, to: out, at: start)
        }
        guard let base = fragment.baseAddress else { return start }
        let allowed = buffers.fragmentAllowed
        let count = fragment.count
        var n = start
        var i = 0
        while i < count {
            let byte = base[i]
            if allowed[Int(byte)] {
                out[n] = byte
                n += 1
                i += 1
            } else if byte == UInt8(ascii: "%"), i + 2 < count, base[i + 1].hexDigitValue != nil,
                base[i + 2].hexDigitValue != nil
            {
                out[n] = byte
                out[n + 1] = base[i + 1]
                out[n + 2] = base[i + 2]
                n += 3
                i += 3
            } else {
                PercentEncoding.write(byte, to: out + n)
                n += 3
                i += 1
            }
        }
        return n
    }
}
