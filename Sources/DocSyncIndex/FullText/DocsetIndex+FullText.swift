import Foundation

extension DocsetIndex {
    /// The text search on the calling thread: the query parsed (``DocsetIndexError/invalidQuery(_:)`` naming the
    /// position of a syntax error), each selected docset's text index queried for the best `limit` pages, the hits
    /// merged by score, then a snippet cut from each hit's text (`pageText`: the page's visible text, nil when it
    /// cannot be read: the snippet is empty).
    package func fullTextSearchBlocking(
        _ query: TextSearchQuery, pageText: (IndexedDocset, String) -> String?
    ) throws(DocsetIndexError) -> TextSearchResults {
        guard (1...SearchQuery.maximumLimit).contains(query.limit) else {
            throw .invalidQuery("limit \(query.limit) is out of range (1...\(SearchQuery.maximumLimit))")
        }
        guard query.docsets.count <= SearchQuery.maximumFilters else {
            throw .invalidQuery("\(query.docsets.count) docset names (at most \(SearchQuery.maximumFilters))")
        }
        try checkInstalled(query.docsets)
        // Zeal's keyword prefixes (`py:event loop`) scope a text search as they scope a name search.
        let keywords = KeywordQuery(parsing: query.text)
        if !keywords.keywords.isEmpty, !docsets.contains(where: { keywords.matches($0.keywords) }) {
            throw .unknownKeyword(keywords.keywords, known: Set(docsets.flatMap(\.keywords)).sorted())
        }
        let parsed: TextQuery
        do { parsed = try TextQuery(parsing: keywords.text) } catch { throw .invalidQuery(error.message) }
        let wanted = Set(groups.expand(query.docsets).docsets.map { $0.lowercased() })
        var results = TextSearchResults(hits: [], building: [], missing: [], failures: [])
        var found: [(docset: IndexedDocset, row: FullTextReader.Row)] = []
        for docset in docsets
        where (query.docsets.isEmpty || wanted.contains(docset.name.lowercased())
            || docset.version.map { wanted.contains("\(docset.name)@\($0)".lowercased()) } == true)
            && (keywords.keywords.isEmpty || keywords.matches(docset.keywords))
        {
            switch FullTextStore.state(of: docset, stateDirectory: stateDirectory) {
            case .building: results.building.append(docset.name)
            case .missing: results.missing.append(docset.name)
            case .ready(let path):
                do {
                    let rows = try FullTextReader.search(
                        path: path, query: parsed, limit: query.limit, docset: docset.name,
                        connections: textConnections)
                    found += rows.map { (docset, $0) }
                } catch {
                    results.failures.append(error)
                }
            }
        }
        found.sort { $0.row.score < $1.row.score }
        for (docset, row) in found.prefix(query.limit) {
            let text = pageText(docset, row.page) ?? ""
            results.hits.append(
                TextSearchHit(
                    docset: docset.name, version: docset.version, page: row.page, title: row.title,
                    snippet: TextSnippet.make(text, query: parsed),
                    url: URL(fileURLWithPath: "\(docset.path)/Contents/Resources/Documents/\(row.page)"),
                    score: row.score))
        }
        return results
    }
}
