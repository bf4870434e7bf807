// The reference of `docsync entries NAME…` (its man page: generate-manual reads the discussion).
extension EntriesCommand {
    static let manual = #"""
        ```sh
        # NAME<TAB>TYPE<TAB>URL per entry
        docsync entries CUPS
        # JSON Lines, streamed
        docsync entries @web --json > entries.jsonl
        ```
        Every entry of each named installed docset (or `@group`), in index order, both index formats, read-only and
        streamed (a cursor on a thread of its own; constant memory whatever the size). `--json` prints one object per
        line: `name`, `type` (normalised, as in `search`), `raw_type` (as the index spells it), `page` (relative to
        `NAME.docset/Contents/Resources/Documents`, percent-decoded, no fragment), `fragment` (null when none) and `url`
        (a `file://` URL of the page's file, with the fragment; for a tarix docset that file is inside `tarix.tgz`, not
        on disk: read it with `docsync cat NAME PAGE` or the library's `contents(of:)`). Exit 0; 64 for an unknown
        docset or group; 74 when an index cannot be read.
        """#
}
