// The reference of `docsync install` (its man page: generate-manual reads the discussion).
extension InstallCommand {
    static let manual = #"""
        ```sh
        docsync install ~/Downloads/Swift.tgz --root ~/.local/share/Zeal/Zeal/docsets --name Swift --version 5.10 --json
        ```
        tgz, tar.bz2, tar.xz, tar.zst, tar, zip or xar (detected from content). `--json` prints the installed docset
        (`InstalledDocset`'s object with `"schema": 1`: `name`, `version`, `path`, `index_path`, `archive_sha256`, …).
        Exit 0 when the new version is in place; 65 when the archive is rejected (the message names the entry and the
        rule); 74 on I/O errors; the installed version is unchanged on any failure. `--layout tarix` installs it as a
        compressed store (docs/configuration.md, "Compressed store"); the default is `--layout extracted`.
        """#
}
