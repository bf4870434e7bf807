// The reference of `docsync serve` (its man page: generate-manual reads the discussion).
extension ServeCommand {
    static let manual = #"""
        ```sh
        # http://127.0.0.1:8484/ : type to search, the page beside it
        docsync serve
        docsync serve --listen 127.0.0.1:9000 --access-log /var/log/docsync/access.log
        curl -s 'http://127.0.0.1:8484/api/search?q=printf&docset=@web&limit=5'
        ```
        A small read-only HTTP front for what docsync installed (no second copy; Hummingbird 2, in its own module
        `DocSyncServe`), run by `docsync serve`, and by `docsync daemon` beside the sync when `[serve]` is in the
        configuration (one swift-service-lifecycle group: SIGTERM lets requests in flight finish, then both stop). The
        server lives in a second executable, `docsync-serve`, installed beside `docsync`: those two commands exec it
        with their own arguments (same process id, so systemd and signals see no difference), and every other command
        runs without Hummingbird and NIO in memory. Without `docsync-serve` beside it, `docsync serve` says so and exits
        69.
        - `/` — a search box with results as you type (name, type, docset, its icon), the document opening beside them
          in a sandboxed frame, ↑/↓ and Enter to move and open, `/` to focus the box, a scope menu with every
          `[[group]]` (`@web`) and docset. It is plain HTML first: `/?q=QUERY&docset=SCOPE` renders the results on the
          server, so a terminal browser (`w3m`, `lynx`) can use it and a search is a shareable link. No external asset:
          its script and style are served by docsync (`/_/app.js`, `/_/app.css`), under a CSP allowing nothing else.
        - `/d/<Name>/<page>` — a page of the installed version, redirected (302, never cached) to
          `/d/<Name>@<ID>/<page>`, the version folder it lives in. Pages of a version never change, so they carry `ETag:
          "<Name@ID>/<page>"`, `Cache-Control: public, max-age=` `[serve] cache_max_age`, answer `If-None-Match` with
          304 and `Range` (one range; `If-Range`) with 206/416, and have the `Content-Type` of their extension
          (`nosniff`). Relative links inside a docset work as on disk and keep a reader on one version: a reader who
          started on a version still gets its pages after a sync replaced it, until the version is pruned
          (`install.grace_period`, or while a lease holds it); then its URLs redirect to the same page of the new
          version. Pages are opened with the checks of `InstalledDocset.contents(of:)`: any path leaving the docset
          (`..`, percent-encoded or not, NUL, control characters, a symlink inside the docset pointing out, overlong) is
          a 404, refused before or by the kernel (`openat2` `RESOLVE_BENEATH`) without opening anything outside. An
          extracted page is read straight into the response buffer; when its path and bytes are already in the kernel's
          caches it is opened and read on the request's own thread without waiting (`RESOLVE_CACHED`, `RWF_NOWAIT`),
          else on the read pool. Such warm pages (and tarix pages in the cache) are answered right on the connection's
          event loop, with no task or thread hop, the same headers, log line and metrics; keep-alive and pipelined
          requests keep their order. A plain `GET` (no query, no conditional or range field) whose head arrives whole
          is read before NIO's HTTP/1 parser, by a strict reader that passes anything unusual on to the parser. A plain
          `GET` of an extracted page answered that way before is answered from what the server remembers of it (up to
          4,096 pages, a quarter of the open-file limit, whose soft value `docsync serve` raises to the hard one): its
          rendered head and its file, kept open as nginx's `open_file_cache` keeps it (no access-time updates) — per
          request only the version folder's `fstatat` in the versions folder (a pruned version redirects at once) and
          the sending, straight on the connection's socket past NIO's write queue when nothing of NIO's is queued
          there: a page of 8 KiB or more as its head (`MSG_MORE`) then `sendfile` from the open file when the page
          cache holds it all (`cachestat`), as nginx's `sendfile on` does (the bytes never pass through the process);
          a shorter one `pread` after its head and written in one call; what the socket does not take goes after it
          through NIO, and later answers behind it. A tarix page is
          inflated straight into the response buffer (the version's store stays open, its index's locations held in
          memory — 16 bytes a document, for stores of up to 131,072 documents, larger ones asking the index — so a page
          costs no SQLite query; a page of up to 64 KiB whose compressed bytes are cached is inflated on the request's
          own thread, others on the read pool; records of 64 KiB or more are inflated with ISA-L's igzip, 1.6–1.8×
          zlib's speed there, shorter ones with zlib, faster for them), then offered to a memory cache of inflated pages
          (`[serve] page_cache_mib`, default 20 MiB, each page charged and kept at its real size; 0 for none): CLOCK with a
          size-aware frequency admission rule, so a page read often displaces rarer ones, equally read smaller pages
          stay, and a crawler's scan does not flush it as it would an LRU — a version's pages never change, so nothing
          in it is ever stale.
        - `/api/search?q=&docset=&type=&limit=` — JSON `{"query", "hits": [...], "failures": [...]}`; each hit is
          `docsync search --json`'s object (same ranking) plus `page_url`, the path under `/d/` serving its page,
          fragment included. `docset` and `type` repeat or take commas; `@group` works. `/api/docsets` — the installed
          docsets: `name`, `title`, `version`, `layout` (`extracted` or `tarix`), `page_url`, `icon_url`.
          `/api/entries/<Name>` — every entry as JSON Lines (`docsync entries --json` plus `page_url`), streamed in
          constant memory. Every `/api/` error, a full search queue's 503 included, is JSON: `{"error": "..."}`.
        - Access log in the Common Log Format (`[serve] access_log`: `-` standard output, a file, `""` none); lines are
          buffered (a `write` per line cost a page a fifth of its time) and written within a second, and when it stops.
        - Metrics: with `[metrics] textfile`, the server writes its totals into the same file every 15 s and at shutdown
          (`docsync_serve_*` lines beside the sync run's: each writer keeps the other's lines, under a lock of the
          folder): `docsync_serve_requests_total{route,status}` (route `pages|search|api|search_page|other`, status
          `2xx`…`5xx`), the histogram `docsync_serve_request_duration_seconds`, `docsync_serve_rejected_total{queue}`
          (503s of a full queue), `docsync_serve_page_cache_hits_total` / `_misses_total` / `_bytes`.
        - Exit status: 78 for a malformed `listen` or a non-loopback one not allowed (the message names the key), 69
          when the address cannot be bound; 0 after SIGTERM/SIGINT.
        - Bounds: GET and HEAD only (405 otherwise), request line ≤ 8 KiB, headers ≤ 32 KiB, pages ≤ 64 MiB, search
          `limit` ≤ 10000 and text ≤ 1 KiB; `idle_timeout` (30s) closes a connection waiting for a request,
          `header_timeout` / `body_timeout` (10s each) close a trickled head or body (not reset by the trickle),
          `request_timeout` answers a slow search or read 503 (one still queued when it passes); `max_connections`
          (16384, lowered to fit the open-file limit, whose soft value is raised to the hard one) caps connections, and
          past 15/16 of it each new connection closes the one idle longest (never one with a request in progress;
          docs/serve-limits.md, with the nginx settings for a remote deployment). Page reads and searches run on fixed pools (reads one thread per core, searches two per core, so a
          short query is not held up behind a long one), with bounded queues (1,024 reads, 256 searches): past them the
          answer is 503 with `Retry-After: 1`, never another thread. The installed docsets are re-read at most once a
          second, in the background while requests keep coming (a sync's flip is seen within about a second).

        **Loopback by default.** `listen` (or `--listen`) must be a loopback address unless `allow_remote = true` (or
        `--allow-remote`); it has no TLS and no authentication of its own. To serve others, put it behind the web server
        you already run:
        ```nginx
        server {
            listen 443 ssl;
            server_name docs.example.org;
            ssl_certificate     /etc/ssl/docs.example.org.pem;
            ssl_certificate_key /etc/ssl/docs.example.org.key;
            auth_basic           "Documentation";
            # htpasswd -c /etc/nginx/docs.htpasswd alice
            auth_basic_user_file /etc/nginx/docs.htpasswd;
            location / {
                proxy_pass http://127.0.0.1:8484;
                proxy_http_version 1.1;
                proxy_set_header Connection "";
                proxy_set_header Host $host;
            }
        }
        ```

        **Docset pages are someone else's HTML and scripts.** Every `/d/` response carries `Content-Security-Policy:
        sandbox allow-scripts allow-popups allow-popups-to-escape-sandbox allow-forms` — no `allow-same-origin` — and
        the search page shows them in an `<iframe sandbox>` with the same flags. Chosen over a second origin/port
        because it needs no second listener, proxy rule or DNS name and holds however the page is reached (framed,
        opened directly, or proxied): the browser runs the page at an opaque origin, so its scripts can read neither the
        search page nor `/api/` (no CORS; `Cross-Origin-Resource-Policy: same-origin`), cannot use this origin's cookies
        or storage (an nginx `auth_basic` in front is not readable by them either), and cannot navigate the top window.
        Everything served is read-only: nothing under root, staging or state is written.
        The page at / searches as Zeal and DevDocs do: the selected hit's page shows beside the results at once, the
        arrow keys move through hits, Enter opens one, `kw:text` searches only the docsets with keyword kw (`kw:`
        alone lists their entries A-Z), and the address keeps the query (/?q=py:open). /_/opensearch.xml (linked from
        the page) adds it to a browser as a search engine. /api/search?q=py:open answers the same keyword syntax;
        /api/docsets lists each docset's keywords.

        Kapeli's docsets may be used only personally or with Dash or Zeal: served beyond loopback, each Kapeli docset
        is named in a warning unless `[serve] kapeli_permission = true` records Kapeli's permission.
        """#
}
