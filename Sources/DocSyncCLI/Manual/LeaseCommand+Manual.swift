// The reference of `docsync lease NAME` (its man page: generate-manual reads the discussion).
extension LeaseCommand {
    static let manual = #"""
        Holds a lease on NAME's current version for a reader in another language: prints one JSON line `{"name", "path",
        "documents", "schema"}` and keeps that version folder (and its search index) from being pruned until its
        standard input closes or the process ends in any way. Exit 64 when there is no such docset.
        """#
}
