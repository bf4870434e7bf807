// The reference of `docsync install` (its man page: generate-manual reads the discussion).
extension InstallCommand {
    static let manual = #"""
        ```sh
        docsync install ~/Downloads/Swift.tgz --root ~/.local/share/Zeal/Zeal/docsets \
            --name Swift --version 5.10 --json
        ```
        tgz, tar.bz2, tar.xz, tar.zst, tar, zip or xar (detected from content). `--json` prints the installed docset
        (`InstalledDocset`'s object with `"schema": 1`: `name`, `version`, `path`, `index_path`, `archive_sha256`, …).
        Exit 0 when the new version is in place; 65 when the archive is rejected (the message names the entry and the
        rule); 74 on I/O errors; the installed version is unchanged on any failure. `--layout tarix` installs it as a
        compressed store (docs/configuration.md, "Compressed store"); the default is `--layout extracted`.
        `--side-by-side` keeps the versions already installed (Zeal #208): each version is its own docset,
        `<root>/NAME@VERSION.docset`, whose meta.json names it `NAME@VERSION` and titles it "TITLE VERSION", so Zeal
        (which keys docsets by name) loads each; the newest keeps `<root>/NAME.docset`. Installing a newer version
        first installs the one NAME holds again as `NAME@ITS_VERSION`; an older one becomes `NAME@VERSION`; the same
        version again replaces that version only. Every command addresses one version as `NAME@VERSION` (search
        --docset, entries, cat, remove, verify, lease); `docsync status` lists each.
        ```sh
        # keeps 5.10
        docsync install Swift-5.9.tgz --root ~/docsets --name Swift --version 5.9 \
            --side-by-side
        ```
        After the docset is in place (readable at once), its text index is built for `docsync search --text` in the
        state folder: `--state DIR`, else the configuration file's, when there is one (`--no-full-text` skips it);
        without either, only with `--full-text` (into docsync's default state folder). Pages left out of it are named
        in warnings on standard error.
        """#
}
