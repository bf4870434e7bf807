// The reference of `docsync add NAME…` (its man page: generate-manual reads the discussion).
extension AddCommand {
    static let manual = #"""
        ```sh
        # no configuration yet: write the documented one first, then add
        docsync add --init Go
        # appends one [[docset]] table per name; aliases become catalogue names
        docsync add Python_3 py2 Jest
        docsync add Python_3 --version 3.9.6 --source zeal
        # print the edit as a unified diff, change nothing
        docsync add Go --dry-run
        # removes that [[docset]] table (the installed docset stays until a prune)
        docsync drop Jest
        ```
        The config file is edited as text, line by line: comments, blank lines and layout are kept (only the table's own
        lines are added or removed), and the result must load before it replaces the file (atomically, same
        permissions). `add` checks names against the catalogues (unknown: exit 65 with suggestions; `--no-check` skips
        it); `drop` of a name that is not selected exits 65.
        """#
}
