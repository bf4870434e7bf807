/// Dash / Zeal feed XML, read from the reader positioned on the root `<entry>` (no namespace):
/// `<version>VERSION[/REVISION]</version>`, one or more mirror `<url>`s, optional `<other-versions>` and
/// `<sha256>`. Unknown elements are ignored.
struct DashFeedParser {
    let cursor: FeedCursor
    /// The docset name (from the feed's URL or file stem).
    let name: String?
    var maxElements = FeedLimits.defaultMaxEntries

    func parse() throws(FeedError) -> FeedDocument {
        let reader = cursor.reader
        let rootLine = reader.line
        var entry = FeedEntry(identifier: name)
        var versionSeen = false
        var inOtherVersions = false
        if !reader.isEmptyElement {
            while try cursor.read() {
                if reader.kind == .endElement {
                    if reader.depth == 0 { break }
                    if reader.depth == 1 { inOtherVersions = false }
                    continue
                }
                guard reader.kind == .element, reader.namespaceURI == nil else { continue }
                guard entry.archives.count < maxElements, entry.otherVersions.count < maxElements else {
                    let name = entry.archives.count < maxElements ? "name" : "url"
                    throw cursor.error(.tooManyElements(name: name, limit: maxElements))
                }
                switch (reader.depth, reader.localName) {
                case (1, "version") where !versionSeen:
                    versionSeen = true
                    let version = DashVersion(try cursor.text() ?? "")
                    entry.version = version.version
                    entry.revision = version.revision
                case (1, "url"):
                    if let url = try cursor.text() { entry.archives.append(FeedArchive(url: try cursor.resolve(url))) }
                case (1, "sha256"): entry.sha256 = try cursor.sha256(element: "sha256")
                case (1, "other-versions"): inOtherVersions = !reader.isEmptyElement
                case (3, "name") where inOtherVersions:
                    if let other = try cursor.text() { entry.otherVersions.append(other) }
                default: continue
                }
            }
        }
        guard versionSeen else { throw cursor.error(.missingRequiredElement("version"), line: rootLine) }
        guard !entry.archives.isEmpty else { throw cursor.error(.missingRequiredElement("url"), line: rootLine) }
        return FeedDocument(format: .dash, entries: [entry], name: name)
    }
}
