// The reference of `docsync fetch` (its man page: generate-manual reads the discussion).
extension FetchCommand {
    static let manual = #"""
        ```sh
        docsync fetch https://example.org/Foo.tgz \
            --mirror https://mirror.example.net/Foo.tgz \
            --output ~/Docsets/Foo.tgz --sha256 3bcae4a4…e255 --json
        ```
        `--connections N` (default 4; 1 disables) fetches a large file in verified segments over N connections and the
        `--mirror`s (see *Segmented downloads*); excluded mirrors are printed to standard error, one line each. FILE
        appears only when complete (and matching `--sha256`). Partial state lives in `--staging DIR` (default
        `.docsync-staging` next to FILE) as `<name>.part`, `<name>.journal` and `<name>.lock`; running the same command
        again after any interruption resumes from the last durable commit (every 8 MiB or 0.25 s). `--json` prints
        `{"schema","url","mirror","bytes","sha256","resumed_from","attempts","seconds","path","mirror_faults"}`
        (`mirror_faults`: `{url, reason, message}` per excluded mirror, also printed when the fetch fails). `--ca-file
        PEM` trusts a private CA (default `$CURL_CA_BUNDLE`, else the system's). Like `sync`, fetch applies `[install]
        max_archive_size` (`--max-size SIZE` overrides it: `500M`, `4G`, `0` no limit; a longer Content-Length is
        refused before downloading, exit 65), HTTPS-First, or `[network] require_https = true` (plain http refused),
        `[network] retries`, and the same transport settings (`proxy`, `rate_limit`, `min_speed`, `stall_timeout`,
        `connect_timeout`, `ca_file`, `allow_private_redirects`, `allow_link_local`; `--ca-file` overrides `ca_file`),
        from the configuration when one is given (`--config`) or found, else the defaults; a file fetched over plain
        http without `--sha256` gets a warning line. Exit 0 done; 65 verification failed, bad server data or too large;
        69 server/network unavailable; 74 local I/O error (the durable prefix is kept); 78 a bad configuration file.

        SEGMENTED DOWNLOADS

        `[network] connections` (default 4; `docsync fetch --connections N`; 1 disables) lets one download use several
        transfers at once, within `per_host` per host, spread over the feed's mirrors (sync fetches a docsync mirror's
        own copy over one connection when its feed also lists upstream fallbacks, so segments never reach them). A fresh
        download starts on one connection; it is handed over to segments only when that first response proves a split
        safe — a 200 with `Accept-Ranges: bytes` (or a 206 for the whole file), a strong ETag or strong Last-Modified,
        no content coding, not an HTML page, a length of at least twice the minimum segment (16 MiB) — and worth it: its
        first 4 MiB do not arrive within a quarter second at 64 MiB/s or faster (a faster connection is not the
        bottleneck, and the single-connection pipeline is the quicker path then). No extra request is made for files
        that stay on one connection. At the hand-over, the bytes the first connection made durable stay in the file as
        the first segment's written part (read back and checked against the SHA-256 taken as they arrived): they are
        never fetched twice. Each connection slot keeps its connection open for its next request to the same mirror
        (keep-alive; never after a redirect), and commits (fdatasync, then the journal) run on a thread of their own, so
        no transfer waits for the disk or for another's commit. Segments start on the journal's 8 MiB chunk boundaries
        and are taken lowest offset first, so streaming install keeps extracting the contiguous durable prefix; a free
        connection splits the remaining range of the segment that would finish last (in proportion to the two
        connections' rates: a mirror 10x slower gets a small share), and a dropped or stalled connection's range goes to
        the next free one. Every extra request carries `If-Match` with the strong ETag (or `If-Unmodified-Since` with
        the strong Last-Modified); every 206 must show that validator, the same complete length and exactly the asked
        range. A 412, or another validator or length from the first mirror, means the file changed: the partial restarts
        from zero under the new identity (within the restart cap). Each segment's durable extent, the SHA-256 state of
        its unfinished chunk and the SHA-256 of every finished chunk are in the journal (version 2; version-1 partials
        still continue on one connection); after a kill each segment resumes where it was durable, re-fetching 64 KiB
        below and comparing them. Before the output exists the whole file is re-read once: every chunk must match the
        digest taken when it arrived, and the whole-file SHA-256 the feed's.

        **Mirror admission rule.** A mirror other than the first takes no segment until it has served a 64 KiB window
        the first mirror already delivered, byte for byte equal, with the same length and validator (sent as
        `If-Match`). A mirror with another ETag is admitted only when the feed gives a SHA-256: it is asked for the
        window once without a precondition, and its own strong ETag is required on every later request. A mirror whose
        validator, length or window bytes differ, or that answers with an HTML page, an empty body, a 404, another
        range, or fails DNS/TLS, is excluded from this download and reported (`docsync fetch`: `mirror excluded: URL:
        message (reason)` and `mirror_faults` in `--json`; sync: a `mirror-fault` event, `mirror    NAME: excluded URL:
        …` in its output), with a reason code (`html_page`, `empty_body`, `http_status`, `different_file`,
        `validator_mismatch`, `length_mismatch`, `ignores_range`, `bad_response`, `dns`, `tls`, `transport`,
        `verification`); its bytes never reach the file. A download on one connection reports the mirrors it leaves for
        the next the same way (an HTTPS-First attempt falling back to the mirror's own http URL is not a fault). Why
        this rule: overlap windows at joins prove only the windows; equal bytes everywhere can only be proven by a
        trusted digest of the whole file, so different validators are accepted only when that digest will check the
        result (a mismatch then costs one fresh download from the first mirror alone).
        """#
}
