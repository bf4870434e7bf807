import Foundation

/// An `XMLReader` seen by a feed parser: reader failures become `FeedError`s naming the feed.
struct FeedCursor {
    let reader: XMLReader
    /// The feed's URL or path, as errors name it.
    let feed: String
    var limits = FeedLimits()

    func read() throws(FeedError) -> Bool {
        do throws(XMLReaderError) { return try reader.read() } catch { throw FeedError(error, feed: feed) }
    }

    /// The current element's character content with whitespace collapsed; nil when empty.
    func text() throws(FeedError) -> String? {
        let text: String
        do throws(XMLReaderError) {
            text = try reader.readText(maxBytes: limits.maxTextBytes)
        } catch {
            throw FeedError(error, feed: feed)
        }
        let collapsed = FeedText.collapsingWhitespace(text)
        return collapsed.isEmpty ? nil : collapsed
    }

    /// Warnings about what was dropped (unreadable dates), in document order.
    let warnings = FeedWarnings()

    /// The current element's text as a date, read leniently (`FeedDate.parseLenient`); nil when empty, and nil
    /// with a warning when unreadable: a date never rejects a feed.
    func date(element: String) throws(FeedError) -> Date? {
        let line = reader.line
        guard let text = try text() else { return nil }
        guard let date = FeedDate.parseLenient(text) else {
            warnings.add(
                "\(feed):\(line): <\(element)> \"\(FeedError.abbreviated(text))\" is not a date; the field is ignored")
            return nil
        }
        return date
    }

    /// The current element's text as a SHA-256 (nil when empty), or an `invalidChecksum` error at its line.
    func sha256(element: String) throws(FeedError) -> String? {
        let line = reader.line
        guard let text = try text() else { return nil }
        guard let digest = FeedChecksum.normalizedSHA256(text) else {
            throw FeedError(feed: feed, line: line, reason: .invalidChecksum(element: element, value: text))
        }
        return digest
    }

    /// `reference` resolved against the current base URI, refused when longer than `limits.maxURLBytes`.
    func resolve(_ reference: String) throws(FeedError) -> String {
        let resolved = reader.resolve(reference)
        guard resolved.utf8.count <= limits.maxURLBytes else { throw error(.urlTooLong(limit: limits.maxURLBytes)) }
        return resolved
    }

    func error(_ reason: FeedError.Reason, line: Int? = nil) -> FeedError {
        FeedError(feed: feed, line: line ?? reader.line, reason: reason)
    }

    /// True when the current node is an element named `name` in `namespace` (nil: no namespace).
    func isElement(_ name: String, in namespace: String?) -> Bool {
        reader.kind == .element && reader.localName == name && reader.namespaceURI == namespace
    }
}
