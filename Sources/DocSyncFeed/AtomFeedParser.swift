import Foundation

/// Atom 1.0 + Apple's docset extension, read from the reader positioned on the root `<feed>`.
/// Matches elements by namespace URI (any prefix); ignores every unknown element (RFC 4287 §6.3).
struct AtomFeedParser {
    let cursor: FeedCursor
    var maxEntries = FeedLimits.defaultMaxEntries

    /// Dates are read leniently; `<published>` stands in for a missing `<updated>` (feed and entries).
    func parse() throws(FeedError) -> FeedDocument {
        var document = FeedDocument(format: .atom)
        let reader = cursor.reader
        guard !reader.isEmptyElement else { return document }
        var entry: FeedEntry?
        var linksInEntries = 0  // links of finished entries: the cap counts every link of the feed
        var published: Date?  // the entry's <published>: its date when <updated> is missing
        var feedPublished: Date?
        while try cursor.read() {
            if reader.kind == .endElement {
                if reader.depth == 0 { break }
                if reader.depth == 1, var finished = entry {
                    linksInEntries += finished.links.count
                    if finished.updated == nil { finished.updated = published }
                    document.entries.append(finished)
                    entry = nil
                }
                continue
            }
            guard reader.kind == .element else { continue }
            if reader.depth == 1, cursor.isElement("entry", in: FeedNamespace.atom) {
                guard document.entries.count < maxEntries else {
                    throw cursor.error(.tooManyElements(name: "entry", limit: maxEntries))
                }
                if reader.isEmptyElement { document.entries.append(FeedEntry()) } else { entry = FeedEntry() }
                published = nil
            } else if reader.depth == 1 {
                if cursor.isElement("published", in: FeedNamespace.atom) {
                    feedPublished = try cursor.date(element: "published")
                } else {
                    try readFeedChild(into: &document, linksBefore: linksInEntries + (entry?.links.count ?? 0))
                }
            } else if reader.depth == 2, var current = entry {
                entry = nil  // keep `current` uniquely referenced while it is filled in
                if cursor.isElement("published", in: FeedNamespace.atom) {
                    published = try cursor.date(element: "published")
                } else {
                    try readEntryChild(into: &current, linksBefore: linksInEntries + document.links.count)
                }
                entry = current
            }
        }
        if document.updated == nil { document.updated = feedPublished }
        return document
    }

    private func readFeedChild(into document: inout FeedDocument, linksBefore: Int) throws(FeedError) {
        guard cursor.reader.namespaceURI == FeedNamespace.atom else { return }
        switch cursor.reader.localName {
        case "id": document.id = try cursor.text()
        case "title": document.title = try title()
        case "updated": document.updated = try cursor.date(element: "updated")
        case "link":
            guard linksBefore + document.links.count < maxEntries else {
                throw cursor.error(.tooManyElements(name: "link", limit: maxEntries))
            }
            if let link = try link() { document.links.append(link) }
        default: break
        }
    }

    private func readEntryChild(into entry: inout FeedEntry, linksBefore: Int) throws(FeedError) {
        let reader = cursor.reader
        switch (reader.namespaceURI, reader.localName) {
        case (FeedNamespace.atom, "id"): entry.id = try cursor.text()
        case (FeedNamespace.atom, "title"): entry.title = try title()
        case (FeedNamespace.atom, "updated"): entry.updated = try cursor.date(element: "updated")
        case (FeedNamespace.atom, "link"):
            guard linksBefore + entry.links.count < maxEntries else {
                throw cursor.error(.tooManyElements(name: "link", limit: maxEntries))
            }
            guard let link = try link() else { return }
            entry.links.append(link)
            if link.rel == "enclosure" {
                entry.archives.append(FeedArchive(url: link.href, type: link.type, length: link.length))
            }
        case (FeedNamespace.docset, "identifier"): entry.identifier = try cursor.text()
        case (FeedNamespace.docset, "version"): entry.version = try cursor.text()
        case (FeedNamespace.docset, "minimumXcodeVersion"): entry.minimumXcodeVersion = try cursor.text()
        case (FeedNamespace.docset, "maximumXcodeVersion"): entry.maximumXcodeVersion = try cursor.text()
        case (FeedNamespace.docset, "signer"): entry.signer = try cursor.text()
        case (FeedNamespace.docset, "issuer"): entry.issuer = try cursor.text()
        case (FeedNamespace.docset, "sha256"): entry.sha256 = try cursor.sha256(element: "docset:sha256")
        default: break
        }
    }

    /// A text construct reduced to plain text (RFC 4287 §3.1: `text`, `html`, `xhtml`).
    private func title() throws(FeedError) -> String? {
        let type = cursor.reader.attribute("type")
        guard let text = try cursor.text() else { return nil }
        let plain = FeedText.plain(text, type: type)
        return plain.isEmpty ? nil : plain
    }

    /// The current `<link>`, its `href` resolved; nil without an `href`.
    private func link() throws(FeedError) -> FeedLink? {
        let reader = cursor.reader
        guard let href = reader.attribute("href") else { return nil }
        let rel = reader.attribute("rel").map(FeedText.collapsingWhitespace) ?? ""
        return FeedLink(
            href: try cursor.resolve(FeedText.collapsingWhitespace(href)),
            rel: Self.normalizedRel(rel),
            type: reader.attribute("type"),
            length: reader.attribute("length").flatMap { Int64(FeedText.collapsingWhitespace($0)) }.flatMap {
                $0 >= 0 ? $0 : nil
            },
            title: reader.attribute("title"),
            hreflang: reader.attribute("hreflang"))
    }

    /// RFC 4287 §4.2.7.2: no `rel` is `alternate`; the IANA registry IRI of a name is that name.
    static func normalizedRel(_ rel: String) -> String {
        let iana = "http://www.iana.org/assignments/relation/"
        if rel.isEmpty { return "alternate" }
        if rel.hasPrefix(iana), rel.count > iana.count { return String(rel.dropFirst(iana.count)) }
        return rel
    }
}
