import DocSync
import DocSyncSupport
import HTTPTypes
import Hummingbird
import Logging
import NIOCore

#if canImport(Glibc)
    import Glibc
#endif

/// The server's routes: one dispatch on the raw request path (decoded here, once, by our own rules), read-only.
struct Routes: Sendable {
    let docsets: ServedDocsets
    let settings: DocSyncConfiguration.Serve
    let logger: Logger
    /// Page reads: one thread per core, a bounded queue (``BlockingPool``).
    let reads: BlockingPool
    /// Searches: at most one per core at once, the rest queued (bounded), never a thread each.
    let searches: BlockingPool
    /// Opens pages, keeping version folders (and tarix stores) open between requests.
    let reader: PageReader
    /// Pages inflated from tarix stores.
    let cache: PageCache

    /// `Cache-Control` of a pinned page (a version never changes): `public, max-age=<cache_max_age>`.
    let pinnedCacheControl: HTTPField

    /// Requests paths longer than this are 404 (before any file system access).
    static let maximumTargetBytes = 8192

    init(
        docsets: ServedDocsets, settings: DocSyncConfiguration.Serve, logger: Logger, reads: BlockingPool,
        searches: BlockingPool, reader: PageReader, cache: PageCache
    ) {
        self.docsets = docsets
        self.settings = settings
        self.logger = logger
        self.reads = reads
        self.searches = searches
        self.reader = reader
        self.cache = cache
        pinnedCacheControl = HTTPField(
            name: .cacheControl, value: "public, max-age=\(settings.cacheMaxAge.components.seconds)")
    }

    func respond(to request: Request, timeout: Duration) async -> Response {
        guard request.method == .get || request.method == .head else {
            var response = Self.text(.methodNotAllowed, "only GET and HEAD\n")
            response.headers[.allow] = "GET, HEAD"
            return response
        }
        let target = request.uri.string
        guard target.utf8.count <= Self.maximumTargetBytes else { return Self.notFound() }
        let path = Substring(request.uri.path)
        let query = QueryString(request.uri.query ?? "")
        var response: Response
        if path.hasPrefix("/d/") {
            response = await pages(path.dropFirst(3), request: request, timeout: timeout)
        } else if path == "/api/search" {
            response = await search(query, before: ContinuousClock.now + timeout)
        } else if path == "/api/text" {
            response = await textSearch(query, before: ContinuousClock.now + timeout)
        } else if path == "/api/docsets" {
            response = docsetList()
        } else if path.hasPrefix("/api/entries/") {
            response = entries(path.dropFirst("/api/entries/".count))
        } else if path.hasPrefix("/icon/") {
            response = await icon(path.dropFirst("/icon/".count))
        } else if path == "/" {
            response = await Deadline.run(timeout) { await searchPage(query) }
                ?? Self.text(.serviceUnavailable, "timed out\n")
        } else if path == "/_/opensearch.xml" {
            response = OpenSearchDescription.response(authority: request.head.authority)
        } else if let asset = SearchPage.asset(path) {
            response = asset
        } else {
            response = Self.notFound()
        }
        if request.method == .head { response.body = ResponseBody.emptyWithLength(response.body.contentLength) }
        return response
    }

    /// 503 with `Retry-After`: a pool's queue is full (`json`: as every `/api/` error, `{"error": …}`).
    static func busy(json: Bool = false) -> Response {
        var response = json ? jsonError(.serviceUnavailable, "busy; retry") : text(.serviceUnavailable, "busy; retry\n")
        response.headers[.retryAfter] = "1"
        return response
    }

    // MARK: JSON API

    /// A search on the search pool: 503 when its queue is full, or when it is still queued at `deadline` (the
    /// request's timeout, checked when a thread takes it, without a timer task per request; a search that started
    /// runs to its end, a few milliseconds).
    func search(_ query: QueryString, before deadline: ContinuousClock.Instant) async -> Response {
        let text = query["q"] ?? ""
        let selectors = query.all("docset").flatMap { $0.split(separator: ",").map(String.init) }
        let types = query.all("type").flatMap { $0.split(separator: ",").map(String.init) }
        var search = SearchQuery(parsing: text, docsets: selectors, types: types)
        let limitText = query["limit"] ?? (search.isListing ? "\(SearchQuery.maximumListing)" : "20")
        guard let limit = Int(limitText), (1...SearchQuery.maximumLimit).contains(limit) else {
            return Self.jsonError(.badRequest, "limit must be 1 to \(SearchQuery.maximumLimit)")
        }
        search.limit = limit
        var hits: [SearchHit] = []
        var failures: [DocsetIndexError] = []
        let index = docsets.snapshot().index
        if let problem = search.problem {
            return Self.jsonError(.badRequest, DocsetIndexError.invalidQuery(problem).description)
        }
        let message = index.unknownKeywords(search)?.description  // no hits, and the keywords there are
        if !search.text.isEmpty || search.isListing, message == nil {
            let ready = search
            switch await searches.run(before: deadline, { index.searchBlocking(ready) }) {
            case .success(let results):
                hits = results.hits
                failures = results.failures
            case .failure(.busy), .failure(.noThread): return Self.busy(json: true)
            case .failure(.timedOut): return Self.jsonError(.serviceUnavailable, "timed out")
            }
        }
        var out = "{\"query\":"
        out.reserveCapacity(64 + 320 * hits.count)
        JSONWriter.appendString(text, to: &out)
        out += ",\"hits\":["
        for (index, hit) in hits.enumerated() {
            if index > 0 { out += "," }
            Self.appendHitJSON(hit, to: &out)
        }
        out += "],\"failures\":["
        out += failures.map { JSONWriter.string($0.description) }.joined(separator: ",")
        out += "]"
        if let message {
            out += ",\"message\":"
            JSONWriter.appendString(message, to: &out)
        }
        out += "}\n"
        return Self.json(out)
    }

    /// `docsync search --json`'s object (keys sorted: docset, fragment when there is one, match, name, page,
    /// raw_type, type, url, version) plus `page_url`, appended to `out` (the hit's URL text built once, for both
    /// `url` and `page_url`).
    static func appendHitJSON(_ hit: SearchHit, to out: inout String) {
        let url = hit.url.absoluteString
        out += "{\"docset\":"
        JSONWriter.appendString(hit.docset, to: &out)
        if let fragment = hit.fragment {
            out += ",\"fragment\":"
            JSONWriter.appendString(fragment, to: &out)
        }
        out += ",\"match\":"
        JSONWriter.appendString(hit.match.label, to: &out)
        out += ",\"name\":"
        JSONWriter.appendString(hit.name, to: &out)
        out += ",\"page\":"
        JSONWriter.appendString(hit.page, to: &out)
        out += ",\"page_url\":"
        JSONWriter.appendString(pageURL(docset: hit.docset, url: url), to: &out)
        out += ",\"raw_type\":"
        JSONWriter.appendString(hit.rawType, to: &out)
        out += ",\"type\":"
        JSONWriter.appendString(hit.type, to: &out)
        appendURLAndVersion(url, hit.version, to: &out)
    }

    /// A hit object's last members, `url` and `version` (when there is one), and its closing brace.
    static func appendURLAndVersion(_ url: String, _ version: String?, to out: inout String) {
        out += ",\"url\":"
        JSONWriter.appendString(url, to: &out)
        if let version {
            out += ",\"version\":"
            JSONWriter.appendString(version, to: &out)
        }
        out += "}"
    }

    /// The path under `/d/` serving a hit's page, fragment included: the hit's `file://` URL with its docset
    /// folder replaced by `/d/<Name>/` (Apple's `Contents/Resources/Documentation/` reached through the
    /// documents folder's `Documentation` link); nil-ish (`""`) for an online page.
    /// `url` is the hit's URL text (`hit.url.absoluteString`, passed in when the caller has built it already).
    static func pageURL(docset: String, url: String) -> String {
        guard url.hasPrefix("file://") else { return url }
        let name = encodeSegment(docset)
        var url = url
        return url.withUTF8 { bytes in
            for marker in folderMarkers {
                if let end = Self.end(of: marker, in: bytes) {
                    return "/d/\(name)/" + String(decoding: UnsafeBufferPointer(rebasing: bytes[end...]), as: UTF8.self)
                }
            }
            return "/d/\(name)/"
        }
    }

    /// The docset folders a hit's page lies in, most specific first.
    private static let folderMarkers: [[UInt8]] = [
        Array("/Contents/Resources/Documents/".utf8), Array("/Contents/Resources/".utf8),
    ]

    /// Where the first occurrence of `marker` in `bytes` ends (a byte loop: Foundation's `range(of:)` went through
    /// `CFStringFind` for every hit).
    static func end(of marker: [UInt8], in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let first = marker.first, bytes.count >= marker.count else { return nil }
        var at = 0
        while at + marker.count <= bytes.count {
            if bytes[at] == first {
                var k = 1
                while k < marker.count, bytes[at + k] == marker[k] { k += 1 }
                if k == marker.count { return at + marker.count }
            }
            at += 1
        }
        return nil
    }

    /// A path segment percent-encoded (everything but unreserved characters).
    static func encodeSegment(_ text: String) -> String {
        PercentEncoding.encoded(text.utf8) { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"), UInt8(ascii: "@"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "+"):
                true
            default: false
            }
        }
    }

    func docsetList() -> Response {
        let snapshot = docsets.snapshot()
        var out = "["
        for (index, docset) in snapshot.docsets.enumerated() {
            if index > 0 { out += "," }
            out += JSONWriter.object([
                ("name", JSONWriter.string(docset.name)), ("title", JSONWriter.string(docset.title)),
                ("version", JSONWriter.string(docset.version)),
                ("version_path", JSONWriter.string(Self.encodeSegment(Self.versionSegment(docset) ?? docset.name))),
                ("layout", JSONWriter.string(Self.layout(docset))),
                ("keywords", "[" + docset.keywords.map { JSONWriter.string($0) }.joined(separator: ",") + "]"),
                ("page_url", JSONWriter.string("/d/\(Self.encodeSegment(docset.name))/")),
                ("icon_url", JSONWriter.string("/icon/\(Self.encodeSegment(docset.name))")),
            ])
        }
        out += "]\n"
        return Self.json(out)
    }

    /// How a docset's pages are stored: `extracted` (files) or `tarix` (a compressed archive with an index).
    static func layout(_ docset: InstalledDocset) -> String {
        var status = stat()
        return stat("\(docset.path)/Contents/Resources/tarix.tgz", &status) == 0 ? "tarix" : "extracted"
    }

    /// Streams `docsync entries --json` lines (keys sorted) plus `page_url`, in constant memory.
    func entries(_ rawName: Substring) -> Response {
        guard let name = PagePath.percentDecoded(rawName), let docset = docsets.snapshot().docset(name) else {
            return Self.jsonError(.notFound, "no such docset")
        }
        let prefix = "/d/\(Self.encodeSegment(docset.name))/"
        let logger = self.logger
        let body = ResponseBody { writer in
            var batch = ""
            do {
                for try await entry in docset.entries() {
                    var line = "{\"fragment\":"
                    line += JSONWriter.string(entry.fragment)
                    line += ",\"name\":" + JSONWriter.string(entry.name)
                    line += ",\"page\":" + JSONWriter.string(entry.page)
                    line += ",\"page_url\":"
                    var pageURL = prefix + entry.page.split(separator: "/", omittingEmptySubsequences: false)
                        .map { Self.encodeSegment(String($0)) }.joined(separator: "/")
                    if let fragment = entry.fragment, !fragment.isEmpty { pageURL += "#" + fragment }
                    if entry.page.hasPrefix("http://") || entry.page.hasPrefix("https://") { pageURL = entry.urlString }
                    line += JSONWriter.string(pageURL)
                    line += ",\"raw_type\":" + JSONWriter.string(entry.rawType)
                    line += ",\"type\":" + JSONWriter.string(entry.type)
                    line += ",\"url\":" + JSONWriter.string(entry.urlString) + "}\n"
                    batch += line
                    if batch.utf8.count >= 64 << 10 {
                        try await writer.write(ByteBuffer(string: batch))
                        batch = ""
                    }
                }
            } catch let error as DocsetIndexError {
                logger.error("entries of \(docset.name.escapingControlCharacters): \(error.description)")
                batch += "{\"error\":" + JSONWriter.string(error.description) + "}\n"
            }
            if !batch.isEmpty { try await writer.write(ByteBuffer(string: batch)) }
            try await writer.finish(nil)
        }
        var response = Response(status: .ok, body: body)
        response.headers[.contentType] = "application/x-ndjson; charset=utf-8"
        response.headers[.cacheControl] = "no-cache"
        Self.apiHeaders(&response)
        return response
    }

    /// The docset's `icon.png` (16×16; Zeal's), read beneath its folder without following links out.
    func icon(_ rawName: Substring) async -> Response {
        guard let name = PagePath.percentDecoded(rawName), let docset = docsets.snapshot().docset(name) else {
            return Self.notFound()
        }
        let folder = docset.path
        let bytes: [UInt8]? = await WorkerThread.run(name: "docsync-icon") {
            let base = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard base >= 0 else { return nil }
            defer { close(base) }
            return try? ContainedFile.read("icon.png", below: base, limit: 1 << 20)
        }
        guard let bytes else { return Self.notFound() }
        var response = Response(status: .ok, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
        response.headers[.contentType] = "image/png"
        response.headers[.cacheControl] = "public, max-age=3600"
        return response
    }

    // MARK: Helpers

    static func versionSegment(_ docset: InstalledDocset) -> String? {
        guard docset.path.contains("/.docsync/versions/"), let last = docset.path.split(separator: "/").last else {
            return nil
        }
        return String(last)
    }

    static func text(_ status: HTTPResponse.Status, _ text: String) -> Response {
        var response = Response(status: status, body: .init(byteBuffer: ByteBuffer(string: text)))
        response.headers[.contentType] = "text/plain; charset=utf-8"
        response.headers[.cacheControl] = "no-store"
        return response
    }

    static func notFound() -> Response { text(.notFound, "not found\n") }

    static func json(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        var response = Response(status: status, body: .init(byteBuffer: ByteBuffer(string: text)))
        response.headers[.contentType] = "application/json; charset=utf-8"
        response.headers[.cacheControl] = "no-cache"
        apiHeaders(&response)
        return response
    }

    /// API answers are for the search page only: not embeddable by other origins (a docset page runs at an opaque
    /// origin, see ``Pages``), never rendered as a document.
    static func apiHeaders(_ response: inout Response) {
        response.headers[.init("Cross-Origin-Resource-Policy")!] = "same-origin"
        response.headers[.contentSecurityPolicy] = "default-src 'none'; frame-ancestors 'none'"
    }

    static func jsonError(_ status: HTTPResponse.Status, _ message: String) -> Response {
        json("{\"error\":\(JSONWriter.string(message))}\n", status: status)
    }
}

extension ResponseBody {
    /// No bytes, but the length the GET would have sent (HEAD).
    static func emptyWithLength(_ length: Int?) -> ResponseBody {
        guard let length else { return ResponseBody() }
        return ResponseBody(contentLength: length) { writer in try await writer.finish(nil) }
    }
}
