internal import CLibXML2
import DocSyncSupport

/// Reads a page's visible text (`VisibleText`) with libxml2's HTML parser in SAX mode: no tree is built, the text is
/// collected as it is parsed and cut at `VisibleTextLimits.maximumTextBytes` (parsing stops there), a page over
/// `maximumPageBytes` is refused before parsing. Options: `RECOVER` (real-world HTML), `NONET`, `NOERROR`,
/// `NOWARNING`; the HTML parser substitutes only HTML's predefined entities (a DOCTYPE's entity
/// declarations are ignored: no entity expansion bomb), and libxml2's errors go nowhere (not to stderr).
/// Pages are read as UTF-8 (what docsets are; libxml2's HTML default would be Latin-1); after invalid UTF-8 libxml2
/// reads the rest as Latin-1, and whatever remains invalid becomes U+FFFD.
package enum VisibleTextReader {
    /// The page's visible text.
    package static func read(_ bytes: [UInt8], limits: VisibleTextLimits = VisibleTextLimits()) throws(VisibleTextError)
        -> VisibleText
    {
        guard bytes.count <= limits.maximumPageBytes else {
            throw .tooLarge(bytes.count, limit: limits.maximumPageBytes)
        }
        do throws(LibraryUnavailable) { try LibXML2.load(for: LibXML2.textPurpose) } catch {
            throw .libraryUnavailable(error)
        }
        // The collector in raw memory, reached through the callbacks' context pointer: no reference counted nor
        // exclusivity checked per callback, as an object's properties would be.
        let collector = UnsafeMutablePointer<TextCollector>.allocate(capacity: 1)
        collector.initialize(to: TextCollector(limits: limits))
        defer {
            collector.pointee.deallocate()
            collector.deinitialize(count: 1)
            collector.deallocate()
        }
        var handler = htmlSAXHandler()
        handler.startElement = { context, name, _ in
            guard let context, let name else { return }
            context.assumingMemoryBound(to: TextCollector.self).pointee.start(name)
        }
        handler.endElement = { context, name in
            guard let context, let name else { return }
            context.assumingMemoryBound(to: TextCollector.self).pointee.end(name)
        }
        handler.characters = { context, text, length in
            guard let context, let text, length > 0 else { return }
            context.assumingMemoryBound(to: TextCollector.self).pointee.text(text, Int(length))
        }
        handler.ignorableWhitespace = handler.characters
        // `cdataBlock` left nil: script and style contents arrive as `characters` inside their element (skipped).
        let saved = (ds___xmlStructuredError().pointee, ds___xmlStructuredErrorContext().pointee)
        ds_xmlSetStructuredErrorFunc(nil, { _, _ in })
        let savedGeneric = ds_xml_discard_generic_errors()
        defer {
            ds___xmlStructuredError().pointee = saved.0
            ds___xmlStructuredErrorContext().pointee = saved.1
            ds_xml_restore_generic_errors(savedGeneric)
        }
        let context = UnsafeMutableRawPointer(collector)
        guard let parser = ds_htmlCreatePushParserCtxt(&handler, context, nil, 0, nil, XML_CHAR_ENCODING_UTF8) else {
            throw .parser
        }
        defer { ds_htmlFreeParserCtxt(parser) }
        _ = ds_htmlCtxtUseOptions(parser, options)
        collector.pointee.parser = parser
        // Fed in chunks (libxml2 copies what it is given into its own buffer), the last one marked as the end:
        // the push parser then parses what it has instead of first searching each construct's end in the bytes
        // ahead (whether the next chunk is needed), -9% of its instructions on generated pages.
        let chunk = 64 << 10
        bytes.withUnsafeBufferPointer { buffer in
            var offset = 0
            repeat {
                let size = min(chunk, buffer.count - offset)
                let start = buffer.baseAddress.map {
                    UnsafeRawPointer($0 + offset).assumingMemoryBound(to: CChar.self)
                }
                offset += size
                _ = ds_htmlParseChunk(parser, start, Int32(size), offset == buffer.count ? 1 : 0)
            } while offset < buffer.count && !collector.pointee.stopped
        }
        collector.pointee.parser = nil
        return collector.pointee.result()
    }

    private static let options = Int32(
        HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NONET.rawValue | HTML_PARSE_NOERROR.rawValue
            | HTML_PARSE_NOWARNING.rawValue)
}

/// The SAX handler's state: where the parser is (inside a skipped element, the title) and the text so far; its
/// buffers freed by ``deallocate()`` (its owner's).
private struct TextCollector {
    private let limits: VisibleTextLimits
    var parser: htmlParserCtxtPtr?
    private(set) var stopped = false
    private var skipped = 0
    private var inTitle = 0
    private var body = TextBuffer(capacity: 16 << 10)
    private var title = TextBuffer(capacity: 256)
    private var truncated = false
    /// What is owed before the next character: 0 nothing, 1 a space (whitespace was seen), 2 a line break (a block
    /// started or ended).
    private var bodySpace: UInt8 = 0
    private var titleSpace: UInt8 = 0

    init(limits: VisibleTextLimits) {
        self.limits = limits
    }

    func deallocate() {
        body.deallocate()
        title.deallocate()
    }

    mutating func start(_ name: UnsafePointer<xmlChar>) {
        switch Self.kind(name) {
        case .skipped: skipped += 1
        case .title: inTitle += 1
        case .block: bodySpace = 2
        case .inline: break
        }
    }

    mutating func end(_ name: UnsafePointer<xmlChar>) {
        switch Self.kind(name) {
        case .skipped: skipped = max(0, skipped - 1)
        case .title: inTitle = max(0, inTitle - 1)
        case .block: bodySpace = 2
        case .inline: break
        }
    }

    mutating func text(_ text: UnsafePointer<xmlChar>, _ length: Int) {
        guard skipped == 0, !stopped else { return }
        let bytes = UnsafeBufferPointer(start: text, count: length)
        if inTitle > 0 {
            title.append(bytes, space: &titleSpace, limit: limits.maximumTitleBytes)
            return
        }
        if !body.append(bytes, space: &bodySpace, limit: limits.maximumTextBytes) {
            truncated = true
            stopped = true
            if let parser { ds_xmlStopParser(parser) }
        }
    }

    func result() -> VisibleText {
        VisibleText(title: title.string, body: body.string, truncated: truncated)
    }

    private enum Kind { case skipped, title, block, inline }

    /// Elements read as part of the running text (no word break at their edges); every other element is a block.
    private static let inline: Set<String> = [
        "a", "abbr", "b", "bdi", "bdo", "big", "cite", "code", "data", "del", "dfn", "em", "font", "i", "ins", "kbd",
        "mark", "q", "s", "samp", "small", "span", "strike", "strong", "sub", "sup", "time", "tt", "u", "var",
    ]

    /// The names' keys (``key(_:)``) and their kinds in an open-addressing table of 64 slots (a key 0: empty), at
    /// ``slot(_:)`` or the next free one: every name of a kind other than block is 8 bytes at most.
    private static let table: (keys: [UInt64], kinds: [Kind]) = {
        var named: [(UInt64, Kind)] = inline.map { (key(Array($0.utf8)), .inline) }
        named += ["script", "style", "template"].map { (key(Array($0.utf8)), .skipped) }
        named.append((key(Array("title".utf8)), .title))
        var keys = [UInt64](repeating: 0, count: 64)
        var kinds = [Kind](repeating: .block, count: 64)
        for (key, kind) in named {
            var slot = Self.slot(key)
            while keys[slot] != 0 { slot = (slot + 1) & 63 }
            keys[slot] = key
            kinds[slot] = kind
        }
        return (keys, kinds)
    }()

    /// A key's first slot in ``table``.
    @inline(__always)
    private static func slot(_ key: UInt64) -> Int { Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 58) }

    /// An element name of at most 8 bytes as a number (its bytes, ASCII letters lowercased); 0 for a longer one.
    private static func key<Bytes: Collection<UInt8>>(_ name: Bytes) -> UInt64 {
        guard name.count <= 8 else { return 0 }
        var key: UInt64 = 0
        for byte in name { key = key << 8 | UInt64(byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) }
        return key
    }

    /// An element's kind, from its name's bytes (libxml2's HTML parser gives ASCII names, lowercased): no string
    /// is made per element, the key is made as the name is read and looked up in ``table``.
    private static func kind(_ name: UnsafePointer<xmlChar>) -> Kind {
        var wanted: UInt64 = 0
        var length = 0
        while name[length] != 0 {
            guard length < 8 else { return .block }
            let byte = name[length]
            wanted = wanted << 8 | UInt64(byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte)
            length += 1
        }
        guard wanted != 0 else { return .block }
        let (keys, kinds) = Self.table
        var slot = Self.slot(wanted)
        while true {
            let key = keys[slot]
            if key == wanted { return kinds[slot] }
            if key == 0 { return .block }
            slot = (slot + 1) & 63
        }
    }
}

/// Text collected as it is parsed, in raw memory (no uniqueness check nor reference counted per byte), freed by
/// ``deallocate()`` (its owner's).
private struct TextBuffer {
    private var base: UnsafeMutablePointer<UInt8>
    private var count = 0
    private var capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
        base = .allocate(capacity: capacity)
    }

    func deallocate() { base.deallocate() }

    /// The text (invalid UTF-8 replaced).
    var string: String { String(decoding: UnsafeBufferPointer(start: base, count: count), as: UTF8.self) }

    /// Appends `bytes` with whitespace runs folded to one space (none leading; `space`: what is owed before the
    /// next character, 2 a line break); false when `limit` was reached (the text then ends on a whole character).
    @discardableResult
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>, space: inout UInt8, limit: Int) -> Bool {
        // At most one separator per byte that is not whitespace, each after whitespace or first: one byte more.
        if count + bytes.count + 1 > capacity {
            capacity = max(capacity * 2, count + bytes.count + 1)
            let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
            grown.update(from: base, count: count)
            base.deallocate()
            base = grown
        }
        for byte in bytes {
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C {
                space = max(space, 1)
                continue
            }
            if space > 0, count > 0 {
                base[count] = space == 2 ? 0x0A : 0x20
                count += 1
            }
            space = 0
            guard count < limit else {
                cutAtCharacter()
                return false
            }
            base[count] = byte
            count += 1
        }
        return true
    }

    /// Drops a UTF-8 sequence left incomplete at the end (never cut inside a character).
    private mutating func cutAtCharacter() {
        guard count > 0 else { return }
        var start = count - 1
        while start > 0, count - start < 4, base[start] & 0xC0 == 0x80 { start -= 1 }
        guard start >= 0, base[start] >= 0xC0 else { return }
        let length = base[start] >= 0xF0 ? 4 : base[start] >= 0xE0 ? 3 : 2
        if count - start < length { count = start }
    }
}
