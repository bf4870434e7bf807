// The reference of `docsync catalog [QUERY]` (its man page: generate-manual reads the discussion).
extension CatalogCommand {
    static let manual = #"""
        ```sh
        # every docset of every catalogue: NAME, TITLE, LATEST, SOURCE, INSTALLED
        # versions in the catalogue's form, revision apart ("3 r27"), and "up to date"
        # or "update available" beside what is installed
        docsync catalog
        # ranked like a search: name, alias, prefix, title, substring, near misses
        docsync catalog python
        # one catalogue: zeal, contrib or cheatsheets
        docsync catalog --source contrib
        # {"schema": 1, "docsets": [{name, title, source, latest, latest_revision,
        # installed, installed_revision, status}]}: every member, null when none
        docsync catalog --json
        # ask the servers even while the cached catalogues are fresh
        docsync catalog --refresh
        ```
        Exit 0, or 3 when a catalogue could not be read (the others are still listed).
        """#
}
