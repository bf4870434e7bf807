import DocSync
import DocSyncSupport
import HTTPTypes
import Hummingbird

extension Routes {
    /// `/api/text?q=…[&docset=…][&limit=N]`: `docsync search --text` over HTTP, on the search pool (503 when its
    /// queue is full or the request is still queued at `deadline`). 400 for a query that cannot be read (over 1 KiB,
    /// no word, a syntax error: the message names the position). Each hit: `docset`, `page`, `page_url` (under
    /// `/d/`), `snippet`, `title`, `url`, `version`; `building` and `missing` name docsets without a text index yet.
    func textSearch(_ query: QueryString, before deadline: ContinuousClock.Instant) async -> Response {
        let text = query["q"] ?? ""
        guard let limit = Int(query["limit"] ?? "20"), (1...SearchQuery.maximumLimit).contains(limit) else {
            return Self.jsonError(.badRequest, "limit must be 1 to \(SearchQuery.maximumLimit)")
        }
        let selectors = query.all("docset").flatMap { $0.split(separator: ",").map(String.init) }
        let search = TextSearchQuery(text, docsets: selectors, limit: limit)
        let index = docsets.snapshot().index
        let answer = await searches.run(before: deadline) {
            Result { () throws(DocsetIndexError) in try index.fullTextSearchBlocking(search) }
        }
        var results = TextSearchResults()
        var message: String?  // a keyword no docset has: no hits and the keywords there are, as /api/search answers
        switch answer {
        case .success(.success(let found)): results = found
        case .success(.failure(let error)) where error.kind == .unknownKeyword: message = error.description
        case .success(.failure(let error)): return Self.jsonError(.badRequest, error.description)
        case .failure(.busy), .failure(.noThread): return Self.busy(json: true)
        case .failure(.timedOut): return Self.jsonError(.serviceUnavailable, "timed out")
        }
        var out = "{\"query\":"
        JSONWriter.appendString(text, to: &out)
        out += ",\"hits\":["
        for (position, hit) in results.hits.enumerated() {
            if position > 0 { out += "," }
            let url = hit.url.absoluteString
            out += "{\"docset\":"
            JSONWriter.appendString(hit.docset, to: &out)
            out += ",\"page\":"
            JSONWriter.appendString(hit.page, to: &out)
            out += ",\"page_url\":"
            JSONWriter.appendString(Self.pageURL(docset: hit.docset, url: url), to: &out)
            out += ",\"snippet\":"
            JSONWriter.appendString(hit.snippet, to: &out)
            out += ",\"title\":"
            JSONWriter.appendString(hit.title, to: &out)
            Self.appendURLAndVersion(url, hit.version, to: &out)
        }
        out += "],\"building\":[" + results.building.map { JSONWriter.string($0) }.joined(separator: ",")
        out += "],\"missing\":[" + results.missing.map { JSONWriter.string($0) }.joined(separator: ",")
        out += "],\"failures\":[" + results.failures.map { JSONWriter.string($0.description) }.joined(separator: ",")
        out += "]"
        if let message {
            out += ",\"message\":"
            JSONWriter.appendString(message, to: &out)
        }
        out += "}\n"
        return Self.json(out)
    }
}
