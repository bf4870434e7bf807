import DocSync
import Hummingbird
import NIOCore

/// The page at `/`: a search form that works as plain HTML (`/?q=QUERY` renders the results on the server, so a
/// terminal browser and a shared link both work), enhanced by `/_/app.js` into results-as-you-type, as Zeal and
/// DevDocs behave: the selected hit's document shows beside the results at once in a sandboxed frame, the arrow
/// keys move the selection, Enter opens it (the frame takes the focus), `kw:text` scopes to the docsets with that
/// keyword (`kw:` lists their entries), and the address keeps the query (`/?q=py:open`), so an OpenSearch
/// description (`/_/opensearch.xml`, linked from the page) lets a browser use it as a search engine. Everything it
/// needs is served here.
enum SearchPage {
    static let resultLimit = 50

    /// The page's own content security policy: nothing but this origin, no inline script, frames only from here.
    static let policy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
        + "frame-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

    static func render(
        query: String, scope: String, text: Bool, hits: [SearchHit], textHits: [TextSearchHit], failures: [String],
        snapshot: ServedDocsets.Snapshot
    ) -> String {
        var html = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(query.isEmpty ? "" : HTMLText.escaped(query) + " — ")docsync</title>
            <link rel="stylesheet" href="/_/app.css">
            <link rel="search" type="application/opensearchdescription+xml" title="docsync" href="/_/opensearch.xml">
            </head><body>
            <form id="search" action="/" method="get" role="search">
            <label for="scope" class="hidden">Scope</label>
            <select name="docset" id="scope"><option value="">All docsets</option>

            """
        let groups = snapshot.index.groups.members.keys.sorted()
        if !groups.isEmpty {
            html += "<optgroup label=\"Groups\">"
            for group in groups { html += option("@" + group, selected: scope) }
            html += "</optgroup>"
        }
        html += "<optgroup label=\"Docsets\">"
        for docset in snapshot.docsets { html += option(docset.name, selected: scope) }
        html += """
            </optgroup></select>
            <label for="kind" class="hidden">Kind</label>
            <select name="kind" id="kind"><option value="">Names</option>\
            <option value="text"\(text ? " selected" : "")>Text</option></select>
            <label for="q" class="hidden">Search</label>
            <input id="q" name="q" type="search" value="\(HTMLText.escaped(query))" autofocus autocomplete="off" \
            spellcheck="false" placeholder="Search \(snapshot.docsets.count) docsets (kw:text for one keyword)">
            <button type="submit">Search</button>
            </form>
            <main>
            <ol id="results" aria-label="Results">

            """
        func link(_ docset: String, _ url: String, _ index: Int) -> String {
            let url = Routes.pageURL(docset: docset, url: url)
            return "<li><a href=\"\(HTMLText.escaped(url))\" target=\"doc\" data-index=\"\(index)\">"
        }
        for (index, hit) in hits.enumerated() {
            html += link(hit.docset, hit.url.absoluteString, index)
            html += "<img src=\"/icon/\(HTMLText.escaped(Routes.encodeSegment(hit.docset)))\" alt=\"\" width=\"16\" "
            html += "height=\"16\"> <span class=\"name\">\(HTMLText.escaped(hit.name))</span> "
            html += "<span class=\"type\">\(HTMLText.escaped(hit.type))</span> "
            html += "<span class=\"docset\">\(HTMLText.escaped(hit.docset))</span></a></li>\n"
        }
        for (index, hit) in textHits.enumerated() {
            html += link(hit.docset, hit.url.absoluteString, index)
            html += "<span class=\"name\">\(HTMLText.escaped(hit.title.isEmpty ? hit.page : hit.title))</span> "
            html += "<span class=\"docset\">\(HTMLText.escaped(hit.docset))</span>"
            html += "<span class=\"snippet\">\(HTMLText.escaped(hit.snippet))</span></a></li>\n"
        }
        if !query.isEmpty && hits.isEmpty && textHits.isEmpty { html += "<li class=\"none\">No results.</li>\n" }
        for failure in failures { html += "<li class=\"failure\">\(HTMLText.escaped(failure))</li>\n" }
        html += """
            </ol>
            <iframe name="doc" id="doc" title="Document" src="about:blank" \
            sandbox="allow-scripts allow-popups allow-popups-to-escape-sandbox allow-forms"></iframe>
            </main>
            <script src="/_/app.js"></script>
            </body></html>

            """
        return html
    }

    static func option(_ value: String, selected: String) -> String {
        let escaped = HTMLText.escaped(value)
        return "<option value=\"\(escaped)\"\(value == selected ? " selected" : "")>\(escaped)</option>"
    }

    /// `/_/app.js` and `/_/app.css`.
    static func asset(_ path: Substring) -> Response? {
        let (body, type): (String, String)
        switch path {
        case "/_/app.js": (body, type) = (script, "text/javascript; charset=utf-8")
        case "/_/app.css": (body, type) = (style, "text/css; charset=utf-8")
        default: return nil
        }
        var response = Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: body)))
        response.headers[.contentType] = type
        response.headers[.cacheControl] = "no-cache"
        return response
    }

    static let style = """
        * { box-sizing: border-box; }
        html, body { height: 100%; margin: 0; }
        body { display: flex; flex-direction: column; font: 14px/1.4 system-ui, sans-serif; color: #222; }
        form { display: flex; gap: .5em; padding: .5em; border-bottom: 1px solid #ccc; background: #f6f6f6; }
        #q { flex: 1; font-size: 16px; padding: .3em .5em; }
        main { flex: 1; display: flex; min-height: 0; }
        #results { width: 24em; margin: 0; padding: 0; list-style: none; overflow-y: auto; border-right: 1px solid #ccc; }
        #results a { display: block; padding: .25em .5em; color: inherit; text-decoration: none; white-space: nowrap;
          overflow: hidden; text-overflow: ellipsis; }
        #results a:hover { background: #eef; }
        #results a.selected { background: #2a5bd7; color: #fff; }
        #results img { vertical-align: -3px; }
        .type, .docset { color: #777; font-size: 12px; margin-left: .4em; }
        a.selected .type, a.selected .docset { color: #dde; }
        .none, .failure { padding: .5em; color: #777; }
        .snippet { display: block; color: #777; font-size: 12px; white-space: normal; }
        #doc { flex: 1; border: 0; width: 100%; height: 100%; }
        .hidden { position: absolute; left: -9999px; }
        @media (prefers-color-scheme: dark) {
          body { background: #1e1e1e; color: #ddd; } form { background: #2a2a2a; border-color: #444; }
          #results { border-color: #444; } #results a:hover { background: #333; }
        }

        """

    static let script = """
        'use strict';
        (function () {
          const input = document.getElementById('q');
          const scope = document.getElementById('scope');
          const list = document.getElementById('results');
          const frame = document.getElementById('doc');
          const kind = document.getElementById('kind');
          let selected = -1, sequence = 0, timer = null;

          function links() { return Array.from(list.querySelectorAll('a')); }

          function select(index, open) {
            const all = links();
            if (all.length === 0) { selected = -1; return; }
            selected = Math.max(0, Math.min(index, all.length - 1));
            all.forEach(function (a, i) { a.classList.toggle('selected', i === selected); });
            all[selected].scrollIntoView({ block: 'nearest' });
            const href = all[selected].getAttribute('href');
            if (frame.getAttribute('src') !== href) { frame.src = href; }
            if (open) { frame.focus(); }
          }

          function item(hit, index) {
            const li = document.createElement('li');
            const a = document.createElement('a');
            a.href = hit.page_url; a.target = 'doc'; a.dataset.index = String(index);
            const icon = document.createElement('img');
            icon.src = '/icon/' + encodeURIComponent(hit.docset); icon.alt = ''; icon.width = 16; icon.height = 16;
            icon.addEventListener('error', function () { icon.style.visibility = 'hidden'; });
            const name = document.createElement('span'); name.className = 'name';
            name.textContent = hit.name !== undefined ? hit.name : (hit.title || hit.page);
            const type = document.createElement('span'); type.className = 'type'; type.textContent = hit.type;
            const docset = document.createElement('span'); docset.className = 'docset'; docset.textContent = hit.docset;
            a.append(icon, ' ', name, ' ', type, ' ', docset);
            if (hit.snippet !== undefined) {
              const snippet = document.createElement('span'); snippet.className = 'snippet';
              snippet.textContent = hit.snippet; a.append(snippet);
            }
            li.append(a);
            return li;
          }

          function show(answer) {
            list.replaceChildren();
            answer.hits.forEach(function (hit, i) { list.append(item(hit, i)); });
            if (answer.hits.length === 0 && answer.query !== '') {
              const li = document.createElement('li'); li.className = 'none'; li.textContent = 'No results.';
              list.append(li);
            }
            if (answer.message) {
              const li = document.createElement('li'); li.className = 'failure'; li.textContent = answer.message;
              list.append(li);
            }
            answer.failures.forEach(function (f) {
              const li = document.createElement('li'); li.className = 'failure'; li.textContent = f; list.append(li);
            });
            selected = -1;
            if (answer.hits.length > 0) { select(0, false); }
          }

          function search() {
            const q = input.value;
            const mine = ++sequence;
            // A keyword alone (`html:`) lists up to 1000 entries, as the API does without a limit.
            const listing = /^[^:]+:\\s*$/.test(q);
            const params = new URLSearchParams(listing ? { q: q } : { q: q, limit: '50' });
            if (scope.value) { params.set('docset', scope.value); }
            const shown = new URLSearchParams({ q: q });
            if (scope.value) { shown.set('docset', scope.value); }
            if (kind.value) { shown.set('kind', kind.value); }
            history.replaceState(null, '', q ? '/?' + shown.toString() : '/');
            document.title = (q ? q + ' — ' : '') + 'docsync';
            if (q === '') { show({ query: '', hits: [], failures: [] }); return; }
            fetch((kind.value === 'text' ? '/api/text?' : '/api/search?') + params.toString())
              .then(function (r) { return r.json(); })
              .then(function (answer) {
                if (mine !== sequence) { return; }
                show(answer.hits ? answer : { query: q, hits: [], failures: [answer.error || 'error'] });
              })
              .catch(function () {});
          }

          input.addEventListener('input', function () { clearTimeout(timer); timer = setTimeout(search, 40); });
          scope.addEventListener('change', search);
          kind.addEventListener('change', search);
          document.getElementById('search').addEventListener('submit', function (e) {
            e.preventDefault();
            if (selected >= 0) { select(selected, true); } else { search(); }
          });
          input.addEventListener('keydown', function (e) {
            if (e.key === 'ArrowDown') { e.preventDefault(); select(selected + 1, false); }
            else if (e.key === 'ArrowUp') { e.preventDefault(); select(selected - 1, false); }
            else if (e.key === 'Enter') { e.preventDefault(); if (selected >= 0) { select(selected, true); } }
          });
          list.addEventListener('click', function (e) {
            const a = e.target.closest('a');
            if (a) { select(Number(a.dataset.index), false); }
          });
          document.addEventListener('keydown', function (e) {
            if (e.key === '/' && document.activeElement !== input) { e.preventDefault(); input.focus(); input.select(); }
          });
          if (links().length > 0) { select(0, false); }
        })();

        """
}

extension Routes {
    /// `/` and `/?q=QUERY&docset=SCOPE`: the search page, with that search's results rendered in it.
    func searchPage(_ query: QueryString) async -> Response {
        let text = query["q"] ?? ""
        let scope = query["docset"] ?? ""
        let snapshot = docsets.snapshot()
        var hits: [SearchHit] = []
        var textHits: [TextSearchHit] = []
        var failures: [String] = []
        var parsed = SearchQuery(parsing: text, docsets: scope.isEmpty ? [] : [scope])
        parsed.limit = parsed.isListing ? SearchQuery.maximumListing : SearchPage.resultLimit
        let search = parsed
        let fullText = query["kind"] == "text"
        if !text.isEmpty, fullText {
            let search = TextSearchQuery(text, docsets: scope.isEmpty ? [] : [scope], limit: SearchPage.resultLimit)
            let index = snapshot.index
            let answer = await searches.run {
                Result { () throws(DocsetIndexError) in try index.fullTextSearchBlocking(search) }
            }
            switch answer {
            case .none: return Self.busy()
            case .some(.success(let results)):
                textHits = results.hits
                failures = results.failures.map(\.description) + results.building.map { "\($0): text index being built" }
            case .some(.failure(let error)): failures = [error.description]
            }
        } else if !fullText, !search.text.isEmpty || search.isListing {
            let index = snapshot.index
            if let problem = search.problem {
                failures = [DocsetIndexError.invalidQuery(problem).description]
            } else if let unknown = index.unknownKeywords(search) {
                failures = [unknown.description]
            } else if let results = await searches.run({ index.searchBlocking(search) }) {
                hits = results.hits
                failures = results.failures.map(\.description)
            } else {
                return Self.busy()
            }
        }
        let html = SearchPage.render(
            query: text, scope: scope, text: fullText, hits: hits, textHits: textHits, failures: failures,
            snapshot: snapshot)
        var response = Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: html)))
        response.headers[.contentType] = "text/html; charset=utf-8"
        response.headers[.cacheControl] = "no-cache"
        response.headers[.contentSecurityPolicy] = SearchPage.policy
        response.headers[.init("Referrer-Policy")!] = "same-origin"
        return response
    }
}
