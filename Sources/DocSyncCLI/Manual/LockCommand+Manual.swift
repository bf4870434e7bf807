// The reference of `docsync lock` (its man page: generate-manual reads the discussion).
extension LockCommand {
    static let manual = #"""
        Writes `docsync.lock` (docs/catalogues.md) for the docsets installed now; docsets without an archive checksum
        (adopted and not yet updated, or installed by another tool) are left out with a warning (exit 3). `--stdout`
        prints it instead.
        """#
}
