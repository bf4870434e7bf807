import ArgumentParser
import DocSync
import Foundation

extension SearchCommand {
    /// `search --text`: the pages whose visible text matches.
    func searchText(_ index: DocsetIndex, docsets: [String]) async throws {
        let results: TextSearchResults
        do {
            results = try await index.fullTextSearch(TextSearchQuery(query, docsets: docsets, limit: limit ?? 20))
        } catch where error.kind == .unknownKeyword {
            printError("docsync: \(error.description.escapingControlCharacters)")
            throw ExitCode(1)  // no hits, as for any query that finds nothing
        } catch {
            throw ValidationError(error.description.escapingControlCharacters)  // usage (64), naming the position
        }
        for name in results.building {
            printError("docsync: search --text: \(name.escapingControlCharacters): its text index is still being built")
        }
        for name in results.missing {
            printError(
                "docsync: search --text: \(name.escapingControlCharacters) has no text index "
                    + "(`docsync sync` builds it; [search] full_text turns it off)")
        }
        for failure in results.failures {
            printError("docsync: search --text: \(failure.description.escapingControlCharacters)")
        }
        printHits(results.hits, json: Self.json) { hit in
            "title = \(hit.title.escapingControlCharacters)\npage = \(hit.page.escapingControlCharacters)\n"
                + "from = \(hit.docset.escapingControlCharacters)\ntext = \(hit.snippet.escapingControlCharacters)\n"
                + "url = \(hit.url.absoluteString)"
        }
        if !results.failures.isEmpty { throw ExitStatus.partialFailure }
        if results.hits.isEmpty { throw ExitCode(1) }
    }

    /// One hit as a JSON object (control characters escaped by JSON itself).
    static func json(_ hit: TextSearchHit) -> String {
        var object: [String: Any] = [
            "docset": hit.docset, "page": hit.page, "title": hit.title, "snippet": hit.snippet,
            "url": hit.url.absoluteString,
        ]
        if let version = hit.version { object["version"] = version }
        return jsonLine(object)
    }
}
