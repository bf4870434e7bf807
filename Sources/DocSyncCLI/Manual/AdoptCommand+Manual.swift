// The reference of `docsync adopt` (its man page: generate-manual reads the discussion).
extension AdoptCommand {
    static let manual = #"""
        ```sh
        # the config's root (Zeal's folder by default)
        docsync adopt
        docsync adopt --root ~/docsets --dry-run
        ```
        Each real `NAME.docset` folder is matched to a catalogue entry by its `meta.json` (`name`, then `feed_url`),
        else `Contents/Info.plist`'s `CFBundleName`, else the folder name. A match is recorded as installed at its
        version without downloading: the folder is moved, contents untouched, to `.docsync/versions/NAME@adopted-ID`
        with `NAME.docset` becoming a link to it in one atomic `renameat2(RENAME_EXCHANGE)` (readers never see it
        missing), and a `[[docset]]` table selects it; the next `sync` updates it through the normal atomic path (a
        folder adopted without `meta.json` has no known version, so that sync downloads the catalogue's). A folder named
        otherwise than its catalogue entry (`Bash Docs.docset` → `Bash`) is moved the same way and shown as
        `Bash.docset` from then on. Folders that match nothing are listed and left alone (exit 3).
        """#
}
