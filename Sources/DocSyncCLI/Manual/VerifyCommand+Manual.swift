// The reference of `docsync verify [NAME]…` (its man page: generate-manual reads the discussion).
extension VerifyCommand {
    static let manual = #"""
        ```sh
        docsync verify               # every docset in the root
        docsync verify Swift C++     # just these
        docsync verify --root ~/docsets
        ```
        Compares each installed version with the manifest recorded when it was installed
        (`<root>/.docsync/manifests/NAME@ID`: every path, its kind, and for files the size and SHA-256), printing
        `intact`, `DAMAGED` with the differences (missing / changed / unexpected paths), or `unchecked` (not installed
        by docsync, or installed before manifests were recorded). `docsync sync --repair` reinstalls damaged docsets
        through the normal download-and-swap path. A tarix docset's `tarix.tgz` and `tarixIndex.db` are hashed like
        every file, then its index is checked against its archive in full (every record located where the index says,
        every document indexed).

        A plain `docsync sync` checks cheaply what every reader needs in each docset it would leave unchanged —
        `Contents/Info.plist`, `Contents/Resources/docSet.dsidx`, `Contents/Resources/Documents` and `meta.json`, one
        `lstat` each against the manifest (present, same kind, same size; no hashing) — and reports a damaged one as
        `failed` with code `damaged` (`failed    A: the installed version is damaged (missing Contents/Info.plist);
        docsync sync --repair reinstalls it`), never `unchanged`; the sync then exits 3. A missing or unreadable
        `meta.json` makes the installed version unknown, and the sync reinstalls it. Only `verify` hashes every file.
        """#
}
