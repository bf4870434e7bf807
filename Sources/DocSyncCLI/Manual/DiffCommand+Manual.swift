// The reference of `docsync diff NAME` (its man page: generate-manual reads the discussion).
extension DiffCommand {
    static let manual = #"""
        Compares two versions of a docset that the change log (`docsync changes`) names, for an indexing backend
        that reindexes only what changed: the pages of its documents folder added, removed or modified (by the
        SHA-256 of their bytes), and its index entries added or removed. Built from what each install records in
        <root>/.docsync/changes/content/NAME@ID (a digest per page and the index rows, not the files), kept for as
        long as the log names the version ([changes] keep), so it works after the old version's files are pruned.
        Both layouts compare by content: a version kept extracted and one kept in a tarix store with the same bytes
        differ in nothing. Works for a user who may only read the root.

        Versions: default, the docset's last change (from the version it replaced, or from nothing for a first
        install: everything is added, to the version installed now). --from V alone compares V with the version
        installed now; --to V alone compares V with the version it replaced. V is a version folder the log names
        (NAME@ID, as `changes --json` prints in from_version_id / to_version_id; any docset's, so a copy kept side
        by side compares too), its ID alone, or a publisher version (`changes`' from / to) — when several version
        folders of NAME have that version (the same version installed again with other bytes), give the ID.

        Output: a first line naming both versions, then `A`, `D` or `M` and the page (relative to the documents
        folder, as `docsync entries` prints it) for each page; `+` or `-`, name, type and page#fragment for each
        entry; then a count. With --json, one JSON object per line and nothing else: {"page": P, "change":
        "added"|"removed"|"modified"} for pages, then {"entry": {"name", "type", "raw_type", "page", "fragment"
        (null when none)}, "change": "added"|"removed"} for entries. An entry is identified by all its fields: one
        whose page or type changed is one removed and one added.

        Exit status: 0; 64 when the log names no such docset or version, several version folders have the version
        given (the message lists their IDs), or the docset is not installed and no versions were given; 65 when a
        version has no record of its content (installed before docsync kept one, or adopted: reindex that docset
        in full); 74 when the log or a record cannot be read.
        """#
}
