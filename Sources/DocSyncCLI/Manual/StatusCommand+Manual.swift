// The reference of `docsync status` (its man page: generate-manual reads the discussion).
extension StatusCommand {
    static let manual = #"""
        ```sh
        # installed docsets (version, size, installed at, source), partial downloads,
        docsync status
        # and the last sync's result per feed
        docsync status --json
        # a root installed with `install --root`, without a configuration file
        docsync status --root ~/docsets
        ```
        Each docset's line shows its layout (`extracted` or `tarix`), the regular files and bytes its version folder
        takes on disk; `--json` has them per docset in `disk` (`{"name", "layout", "files", "bytes"}`) and `"layout":
        "tarix"` in a tarix docset's object. It also says when a sync is running (`Sync in progress: pid N since …`,
        from `sync.lock`, which the holder fills with its pid and start time), how the last run ended even when it was
        interrupted (`last-run.json` is written when a run starts and again when it ends: `ok`, `failed`, `interrupted`,
        `error`, or "did not finish" after a kill or a reboot), and for each partial download its bytes and when it last
        made progress. `--json` prints `{"schema": 1, "docsets": [InstalledDocset…], "partial_downloads": […],
        "reclaimable": {…}, "last_sync": {…}, "sync_in_progress": {"pid", "since"}, "last_run": {"started_at",
        "finished_at", "state", "pid", "detail"}}` (the DocC article JSONObjects.md); each partial download has
        `updated_at`. Ctrl-C / SIGTERM during `sync` prints one line (what partial downloads were kept; the next sync
        resumes them) and exits 130.

        Every sync empties `<root>/.docsync/trash` at its start (what a killed run left) and at its end, after moving
        there the replaced versions whose grace period has passed (a version still in its grace period is kept: a reader
        may hold it). A failed extraction's staging tree is deleted at once. Staging files of versions no longer planned
        (`.part`, `.journal`, `.lock`, `complete/*.archive`) are deleted once untouched for `partial_max_age`
        (`[install]`, default `"7d"`) — or at the end of the run that installs a newer version of their docset, whatever
        their age: a partial whose version can never be planned again (its journal names `IDENTIFIER@VERSION`, that
        docset is installed newer and the plan does not want that version) is garbage at once — its `.part`, `.journal`,
        `.journal.tmp`, `.lock` and `complete/` archive — so a storm of killed syncs with a new version each run leaves
        nothing behind. (A finished archive in `complete/` whose journal is already gone cannot be matched to its
        version; it still goes after `partial_max_age`.) `docsync status` shows what is reclaimable (`reclaimable` in
        `--json`: `trash_bytes`, `stale_partials`, `stale_partial_bytes`).
        """#
}
