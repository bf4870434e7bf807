/// Turns a feed document (Atom + docset extension, or Dash XML) plus its URL into docset entries.
///
/// Streaming (libxml2's `xmlTextReader`): memory stays flat however large the feed. Parsing never fetches
/// anything; `FeedFetcher` does the HTTP part. Every failure is a `FeedError` naming the feed and, where known,
/// the line and column.
package enum FeedParser {
    /// Parses the file at `path`. `documentURL` (the URL the feed was published at) is the base for relative
    /// references; without it they are resolved against `xml:base` only. Errors name `path`.
    package static func parse(
        fileAt path: String, documentURL: String?, limits: FeedLimits = .init()
    ) throws(FeedError) -> FeedDocument {
        let input: XMLInput
        do throws(XMLInputFailure) {
            input = try XMLInput(fileAt: path, limit: limits.maxBytes, maxAttributes: limits.maxAttributes)
        } catch {
            throw FeedError(.input(error), feed: path)
        }
        return try parse(input: input, feed: path, documentURL: documentURL, path: path, limits: limits)
    }

    /// Parses `bytes`, e.g. a body fetched from `documentURL`. Errors name `documentURL` (or `<memory>`).
    package static func parse(
        bytes: [UInt8], documentURL: String?, limits: FeedLimits = .init()
    ) throws(FeedError) -> FeedDocument {
        try parse(bytes: bytes, documentURL: documentURL, feed: documentURL ?? "<memory>", limits: limits)
    }

    /// As `parse(bytes:documentURL:limits:)`, with errors naming `feed`.
    package static func parse(
        bytes: [UInt8], documentURL: String?, feed: String, limits: FeedLimits
    ) throws(FeedError) -> FeedDocument {
        if HTMLSniffer.isHTML(bytes) { throw FeedError(feed: feed, reason: .htmlPage) }
        let input = XMLInput(bytes: bytes, limit: limits.maxBytes, maxAttributes: limits.maxAttributes)
        return try parse(input: input, feed: feed, documentURL: documentURL, path: nil, limits: limits)
    }

    private static func parse(
        input: XMLInput, feed: String, documentURL: String?, path: String?, limits: FeedLimits
    ) throws(FeedError) -> FeedDocument {
        let reader: XMLReader
        do throws(XMLReaderError) {
            reader = try XMLReader(input: input, documentURL: documentURL, maxDepth: limits.maxDepth)
        } catch {
            throw FeedError(error, feed: feed)
        }
        let cursor = FeedCursor(reader: reader, feed: feed, limits: limits)
        while try cursor.read() {
            guard reader.kind == .element else { continue }
            var document: FeedDocument
            if cursor.isElement("feed", in: FeedNamespace.atom) {
                document = try AtomFeedParser(cursor: cursor, maxEntries: limits.maxEntries).parse()
            } else if cursor.isElement("entry", in: nil) {
                let name = DashFeedName.name(documentURL: documentURL, path: path)
                document = try DashFeedParser(cursor: cursor, name: name, maxElements: limits.maxEntries).parse()
            } else {
                throw cursor.error(.unknownRootElement(name: reader.localName, namespace: reader.namespaceURI))
            }
            while try cursor.read() {}  // the rest must be well-formed too (comments, PIs, whitespace)
            document.warnings = cursor.warnings.items
            return document
        }
        throw FeedError(feed: feed, line: 1, column: 1, reason: .notXML(code: 4, message: "Document is empty"))
    }
}
