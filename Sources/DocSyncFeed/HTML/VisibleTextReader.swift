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
        let collector = TextCollector(limits: limits)
        var handler = htmlSAXHandler()
        handler.startElement = { context, name, _ in
            guard let context, let name else { return }
            Unmanaged<TextCollector>.fromOpaque(context).takeUnretainedValue().start(name)
        }
        handler.endElement = { context, name in
            guard let context, let name else { return }
            Unmanaged<TextCollector>.fromOpaque(context).takeUnretainedValue().end(name)
        }
        handler.characters = { context, text, length in
            guard let context, let text, length > 0 else { return }
            Unmanaged<TextCollector>.fromOpaque(context).takeUnretainedValue().text(text, Int(length))
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
        let context = Unmanaged.passUnretained(collector).toOpaque()
        guard let parser = ds_htmlCreatePushParserCtxt(&handler, context, nil, 0, nil, XML_CHAR_ENCODING_UTF8) else {
            throw .parser
        }
        defer { ds_htmlFreeParserCtxt(parser) }
        _ = ds_htmlCtxtUseOptions(parser, options)
        collector.parser = parser
        let chunk = 64 << 10
        bytes.withUnsafeBufferPointer { buffer in
            var offset = 0
            while offset < buffer.count, !collector.stopped {
                let size = min(chunk, buffer.count - offset)
                let start = UnsafeRawPointer(buffer.baseAddress! + offset).assumingMemoryBound(to: CChar.self)
                _ = ds_htmlParseChunk(parser, start, Int32(size), 0)
                offset += size
            }
            if !collector.stopped { _ = ds_htmlParseChunk(parser, nil, 0, 1) }
        }
        collector.parser = nil
        return collector.result()
    }

    private static let options = Int32(
        HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NONET.rawValue | HTML_PARSE_NOERROR.rawValue
            | HTML_PARSE_NOWARNING.rawValue)
}

/// The SAX handler's state: where the parser is (inside a skipped element, the title) and the text so far.
private final class TextCollector {
    private let limits: VisibleTextLimits
    var parser: htmlParserCtxtPtr?
    private(set) var stopped = false
    private var skipped = 0
    private var inTitle = 0
    private var body: [UInt8] = []
    private var title: [UInt8] = []
    private var truncated = false
    /// What is owed before the next character: 0 nothing, 1 a space (whitespace was seen), 2 a line break (a block
    /// started or ended).
    private var bodySpace: UInt8 = 0
    private var titleSpace: UInt8 = 0

    init(limits: VisibleTextLimits) {
        self.limits = limits
        body.reserveCapacity(16 << 10)
    }

    func start(_ name: UnsafePointer<xmlChar>) {
        switch Self.kind(name) {
        case .skipped: skipped += 1
        case .title: inTitle += 1
        case .block: bodySpace = 2
        case .inline: break
        }
    }

    func end(_ name: UnsafePointer<xmlChar>) {
        switch Self.kind(name) {
        case .skipped: skipped = max(0, skipped - 1)
        case .title: inTitle = max(0, inTitle - 1)
        case .block: bodySpace = 2
        case .inline: break
        }
    }

    func text(_ text: UnsafePointer<xmlChar>, _ length: Int) {
        guard skipped == 0, !stopped else { return }
        let bytes = UnsafeBufferPointer(start: text, count: length)
        if inTitle > 0 {
            Self.append(bytes, to: &title, space: &titleSpace, limit: limits.maximumTitleBytes)
            return
        }
        if !Self.append(bytes, to: &body, space: &bodySpace, limit: limits.maximumTextBytes) {
            truncated = true
            stopped = true
            if let parser { ds_xmlStopParser(parser) }
        }
    }

    func result() -> VisibleText {
        VisibleText(
            title: String(decoding: title, as: UTF8.self), body: String(decoding: body, as: UTF8.self),
            truncated: truncated)
    }

    /// Appends `bytes` with whitespace runs folded to one space (none leading); false when `limit` was reached.
    @discardableResult
    private static func append(
        _ bytes: UnsafeBufferPointer<UInt8>, to text: inout [UInt8], space: inout UInt8, limit: Int
    ) -> Bool {
        for byte in bytes {
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C {
                space = max(space, 1)
                continue
            }
            if space > 0, !text.isEmpty { text.append(space == 2 ? 0x0A : 0x20) }
            space = 0
            guard text.count < limit else {
                cutAtCharacter(&text)
                return false
            }
            text.append(byte)
        }
        return true
    }

    /// Drops a UTF-8 sequence left incomplete at the end of `text` (never cut inside a character).
    private static func cutAtCharacter(_ text: inout [UInt8]) {
        var start = text.count - 1
        while start > 0, text.count - start < 4, text[start] & 0xC0 == 0x80 { start -= 1 }
        guard start >= 0, text[start] >= 0xC0 else { return }
        let length = text[start] >= 0xF0 ? 4 : text[start] >= 0xE0 ? 3 : 2
        if text.count - start < length { text.removeSubrange(start...) }
    }

    private enum Kind { case skipped, title, block, inline }

    /// Elements read as part of the running text (no word break at their edges); every other element is a block.
    private static let inline: Set<String> = [
        "a", "abbr", "b", "bdi", "bdo", "big", "cite", "code", "data", "del", "dfn", "em", "font", "i", "ins", "kbd",
        "mark", "q", "s", "samp", "small", "span", "strike", "strong", "sub", "sup", "time", "tt", "u", "var",
    ]

    private static func kind(_ name: UnsafePointer<xmlChar>) -> Kind {
        let tag = String(cString: name).lowercased()
        switch tag {
        case "script", "style", "template": return .skipped
        case "title": return .title
        default: return inline.contains(tag) ? .inline : .block
        }
    }
}
