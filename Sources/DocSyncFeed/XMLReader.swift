internal import CLibXML2
import DocSyncSupport

/// What an `XMLReader` stopped on.
enum XMLReaderError: Error, Sendable, Equatable {
    /// The input refused to hand out more bytes (size cap, DOCTYPE in the prolog, read error).
    case input(XMLInputFailure)
    /// libxml2 reported the document not well-formed. `inputEnded` tells whether the root element had begun,
    /// every input byte had been handed to libxml2 and nothing but whitespace follows the error position: the
    /// parser ran out of document in the middle of it.
    case malformed(code: Int32, message: String, line: Int, column: Int, inputEnded: Bool)
    /// A DOCTYPE node reached the reader (input the prolog guard does not read, such as UTF-16).
    case doctype(line: Int)
    /// An element deeper than the depth cap.
    case tooDeep(limit: Int, line: Int)
    /// An element whose text is longer than the cap (UTF-8 bytes).
    case textTooLong(limit: Int, line: Int)
    /// libxml2 could not be loaded (CLibXML2).
    case library(LibraryUnavailable)
}

/// The only user of libxml2: a streaming `xmlTextReader` over an `XMLInput`, never building a tree.
///
/// Parsing options are `XML_PARSE_NONET` (no network), `XML_PARSE_NOCDATA` (CDATA arrives as text),
/// `XML_PARSE_BIG_LINES` and `NOERROR`/`NOWARNING` (errors come to `record(_:)`, never to stderr); never `NOENT`,
/// `DTDLOAD`, `DTDVALID`, `XINCLUDE`, `HUGE` or `RECOVER`. Entities are not substituted, external subsets and
/// entities are never loaded, and any DOCTYPE is refused (`XMLPrologGuard` withholds it from libxml2; a DOCTYPE
/// node that still arrives is refused here).
final class XMLReader {
    enum NodeKind: Sendable, Equatable {
        case element, endElement, text, documentType, other
    }

    private let reader: OpaquePointer
    private let input: XMLInput
    private let maxDepth: Int
    private let errors: ErrorLog
    private var elementSeen = false

    private static let options: Int32 =
        Int32(XML_PARSE_NONET.rawValue) | Int32(XML_PARSE_NOCDATA.rawValue) | Int32(XML_PARSE_BIG_LINES.rawValue)
        | Int32(XML_PARSE_NOERROR.rawValue) | Int32(XML_PARSE_NOWARNING.rawValue)

    /// `documentURL` is the document's base URI (nil: relative references stay relative to `xml:base` only).
    init(input: XMLInput, documentURL: String?, maxDepth: Int) throws(XMLReaderError) {
        do throws(LibraryUnavailable) { try LibXML2.load(for: LibXML2.feedPurpose) } catch { throw .library(error) }
        let errors = ErrorLog()
        errors.install()  // before the reader exists: creating it already parses the first bytes
        guard
            let reader = ds_xmlReaderForIO(
                { context, buffer, length in
                    guard let context, let buffer, length > 0 else { return -1 }
                    let input = Unmanaged<XMLInput>.fromOpaque(context).takeUnretainedValue()
                    return Int32(input.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: Int(length))))
                }, nil, Unmanaged.passUnretained(input).toOpaque(), documentURL, nil, Self.options)
        else {
            errors.uninstall()
            if let failure = input.failure { throw .input(failure) }
            let first = errors.first ?? (code: -1, message: "libxml2 could not create a reader", line: 0, column: 0)
            throw .malformed(
                code: first.code, message: first.message, line: first.line, column: first.column, inputEnded: false)
        }
        self.reader = reader
        self.input = input
        self.maxDepth = maxDepth
        self.errors = errors
        ds_xmlTextReaderSetStructuredErrorHandler(reader, ErrorLog.handler, Unmanaged.passUnretained(errors).toOpaque())
    }

    deinit {
        ds_xmlFreeTextReader(reader)
        errors.uninstall()
    }

    /// Keeps the first error-level report of libxml2. It is both the reader's handler and, while the reader
    /// lives, the thread's structured handler: encoding and I/O errors are raised without the parser context and
    /// would otherwise go to libxml2's generic handler, which prints to stderr (the few lines printed straight to
    /// the generic handler are discarded meanwhile). A reader lives within one synchronous parse, so it is
    /// installed and uninstalled on the same thread.
    private final class ErrorLog {
        /// Errors raised outside the parser (encoding, I/O) carry no position: line 0, reported as unknown.
        var first: (code: Int32, message: String, line: Int, column: Int)?
        private var saved: (handler: xmlStructuredErrorFunc?, context: UnsafeMutableRawPointer?)?
        private var savedGeneric: ds_xml_generic_error_state?

        static let handler: xmlStructuredErrorFunc = { context, error in
            guard let context, let error else { return }
            Unmanaged<ErrorLog>.fromOpaque(context).takeUnretainedValue().record(error.pointee)
        }

        func install() {
            saved = (ds___xmlStructuredError().pointee, ds___xmlStructuredErrorContext().pointee)
            ds_xmlSetStructuredErrorFunc(Unmanaged.passUnretained(self).toOpaque(), Self.handler)
            savedGeneric = ds_xml_discard_generic_errors()
        }

        func uninstall() {
            guard let saved else { return }
            ds___xmlStructuredError().pointee = saved.handler
            ds___xmlStructuredErrorContext().pointee = saved.context
            self.saved = nil
            if let savedGeneric { ds_xml_restore_generic_errors(savedGeneric) }
            savedGeneric = nil
        }

        private func record(_ error: xmlError) {
            guard first == nil, error.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
            var message = error.message.map { String(cString: $0) } ?? "error \(error.code)"
            while message.last?.isWhitespace == true { message.removeLast() }
            first = (error.code, message, Int(error.line), Int(error.int2))
        }
    }

    /// Moves to the next node; false at the end of the document.
    func read() throws(XMLReaderError) -> Bool {
        let status = ds_xmlTextReaderRead(reader)
        if let failure = input.failure { throw .input(failure) }
        if let error = errors.first {
            throw .malformed(
                code: error.code, message: error.message, line: error.line, column: error.column,
                inputEnded: input.isAtEnd && elementSeen
                    && (error.line, error.column) >= (input.contentEndLine, input.contentEndColumn))
        }
        guard status == 1 else {
            if status == 0 { return false }
            throw .malformed(code: -1, message: "the reader failed", line: line, column: 0, inputEnded: false)
        }
        switch kind {
        case .documentType: throw .doctype(line: line)
        case .element where depth >= maxDepth: throw .tooDeep(limit: maxDepth, line: line)
        case .element:
            elementSeen = true
            return true
        default: return true
        }
    }

    var kind: NodeKind {
        switch ds_xmlTextReaderNodeType(reader) {
        case Int32(XML_READER_TYPE_ELEMENT.rawValue): .element
        case Int32(XML_READER_TYPE_END_ELEMENT.rawValue): .endElement
        case Int32(XML_READER_TYPE_TEXT.rawValue), Int32(XML_READER_TYPE_CDATA.rawValue),
            Int32(XML_READER_TYPE_WHITESPACE.rawValue), Int32(XML_READER_TYPE_SIGNIFICANT_WHITESPACE.rawValue):
            .text
        case Int32(XML_READER_TYPE_DOCUMENT_TYPE.rawValue): .documentType
        default: .other
        }
    }

    /// The root element has depth 0.
    var depth: Int { Int(ds_xmlTextReaderDepth(reader)) }

    var localName: String { Self.string(ds_xmlTextReaderConstLocalName(reader)) ?? "" }

    /// Nil for elements in no namespace.
    var namespaceURI: String? { Self.string(ds_xmlTextReaderConstNamespaceUri(reader)) }

    /// The text of a text node.
    var value: String { Self.string(ds_xmlTextReaderConstValue(reader)) ?? "" }

    var isEmptyElement: Bool { ds_xmlTextReaderIsEmptyElement(reader) == 1 }

    /// The line of the current node (the parser's line if the node does not know it).
    var line: Int {
        if let node = ds_xmlTextReaderCurrentNode(reader) {
            let line = ds_xmlGetLineNo(node)
            if line > 0, line < 65535 { return line }
        }
        return Int(ds_xmlTextReaderGetParserLineNumber(reader))
    }

    /// The value of the current element's attribute `name` in no namespace, or in `namespace`.
    func attribute(_ name: String, namespace: String? = nil) -> String? {
        let value =
            if let namespace {
                ds_xmlTextReaderGetAttributeNs(reader, name, namespace)
            } else {
                ds_xmlTextReaderGetAttribute(reader, name)
            }
        return Self.take(value)
    }

    /// The current node's base URI: the document URL combined with every `xml:base` in scope.
    var baseURI: String? { Self.take(ds_xmlTextReaderBaseUri(reader)) }

    /// Resolves `reference` against the current base URI (RFC 3986 §5, by `xmlBuildURI`, then `URIReference`).
    /// IRIs (non-ASCII in the reference or in `xml:base`) become URIs first: their UTF-8 percent-encoded (RFC 3987
    /// §3.1), so no request ever carries a raw non-ASCII byte.
    func resolve(_ reference: String) -> String {
        let base = baseURI.map(URIReference.escapingInvalidCharacters)
        let escaped = URIReference.escapingInvalidCharacters(reference)
        if let resolved = Self.take(ds_xmlBuildURI(escaped, base)) {
            return URIReference.escapingInvalidCharacters(URIReference.removingDotSegments(resolved))
        }
        return escaped
    }

    private static func string(_ pointer: UnsafePointer<xmlChar>?) -> String? {
        pointer.map { String(cString: $0) }
    }

    private static func take(_ pointer: UnsafeMutablePointer<xmlChar>?) -> String? {
        guard let pointer else { return nil }
        defer { ds_xml_free(pointer) }
        return String(cString: pointer)
    }
}
