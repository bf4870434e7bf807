extension XMLReader {
    /// Reads to the end of the current element and returns its character content: every descendant text and
    /// CDATA node in document order (so the text of an xhtml `div` too). Leaves the reader on the end tag.
    func readText(maxBytes: Int = .max) throws(XMLReaderError) -> String {
        guard kind == .element, !isEmptyElement else { return "" }
        let elementDepth = depth
        var text = ""
        while try read() {
            switch kind {
            case .text:
                text += value
                if text.utf8.count > maxBytes { throw .textTooLong(limit: maxBytes, line: line) }
            case .endElement where depth == elementDepth: return text
            default: continue
            }
        }
        return text
    }
}
