// The reference of `docsync init` (its man page: generate-manual reads the discussion).
extension InitCommand {
    static let manual = #"""
        ```sh
        # root = Zeal's docset folder (exit 64 without one: pass --root)
        docsync init
        docsync init --root ~/docsets --config ./docsync.toml
        ```
        """#
}
