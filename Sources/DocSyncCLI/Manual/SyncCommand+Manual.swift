// The reference of `docsync sync` (its man page: generate-manual reads the discussion).
extension SyncCommand {
    static let manual = #"""
        ```sh
        # refresh feeds, install new/updated docsets, report
        docsync sync
        # print the plan only
        docsync sync --dry-run
        # just these docsets (a name that matches nothing: exit 64, the names that
        # exist and the nearest one, e.g. apidoc → apiDoc; the same for remove)
        docsync sync --only Swift C++
        # ask servers even for feeds still fresh by Cache-Control / Expires
        docsync sync --refresh
        # queue behind a running sync (the timer's setting)
        docsync sync --wait
        # install exactly docsync.lock (checksums enforced); drift fails (exit 3)
        docsync sync --locked
        # also reinstall docsets `docsync verify` finds damaged
        docsync sync --repair
        # then convert installed docsets to [install] layout (extracted / tarix)
        docsync sync --relayout
        # newline-delimited events: feed-checked, feed-failed, feed-warning, plan,
        # progress, installed, updated, unchanged, removed, orphaned, skipped, failed,
        # hook-failed, warning (e.g. installed over plain http, no checksum), indexed
        # (search index ready, with its entry count), index-failed, summary (each
        # object: Sources/DocSync/DocSync.docc/JSONObjects.md)
        docsync sync --json | jq .
        ```
        A lock in the state directory keeps two syncs apart (exit 75 without `--wait`). Feeds are fetched with
        conditional GETs (ETag / Last-Modified kept per feed): a 304 costs no body bytes, and a feed still fresh by its
        `Cache-Control: max-age` / `Expires` is not requested at all. One line per docset (installed / updated /
        unchanged / failed with reason) and totals; on a terminal a live line per active download (bytes, rate, ETA) on
        stderr; through a pipe or a log, a `progress` line every 10 s or each 10 % of a download (at most one a second),
        its rate measured over the last 10 s; `NO_COLOR` is honoured. Exit 0 when all is well, 3 when some docsets or
        feeds failed (the others still synced), 75 when locked, 78 for a bad configuration. A broken feed or archive
        never stops the others, and never touches the installed version. A feed location without `http://` / `https://`
        is a local path: when no such file exists the error says so and shows the URL it probably meant; a server
        answering with an HTML page (soft 404, captive portal, login page) gets "an HTML page, not a feed".

        **Streaming install.** By default `docsync sync` extracts while the archive downloads: the installer reads the
        partial file in staging as it grows — only bytes the downloader has made durable — into a fresh staging tree,
        with every extraction safety rule. The new version is swapped in only when the download is complete and verified
        (length, and SHA-256 when the feed gives one) and the archive's end was read cleanly; a failure on either side
        stops both and leaves the installed version as it was. If a resume finds the server's bytes changed (new ETag),
        the download restarts and so does the extraction, from byte 0 into a fresh staging tree; after a crash, the
        download resumes and the extraction starts again from byte 0 of the partial file. A sync costs about the longer
        of download and extraction, not their sum: the downloader also commits 4 and 6 MiB into its first 8 MiB chunk,
        so the extraction starts after 4 MiB, and the installer has the kernel read the durable bytes ahead of it.
        `--no-streaming` (or `streaming = false` under `[install]`) downloads first, then installs. Progress comes as
        `downloading` (bytes, total, rate) and `installing` (archive bytes extracted).
        """#
}
