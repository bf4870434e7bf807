// The reference of `docsync mirror publish` (its man page: generate-manual reads the discussion).
extension MirrorCommand {
    static let manual = #"""
        See FLEET MIRROR below. `publish`: exit 0; 3 when some docsets were left out (no archive checksum); 74 when the tree
        cannot be written; 78 without `[mirror]`. `bundle`: 74 on I/O errors. `import`: 3 when some docsets failed, 65
        for a file that is not a bundle.

        FLEET MIRROR

        One docsync host can publish what it verified as a static tree that nginx, a caching proxy, a CDN or an object
        store serves; the other hosts (docsync, or Zeal through "Add feed") sync from it instead of from the publishers.
        **Licence:** Kapeli's docsets (and most others) are offered for personal use: a public or company mirror of
        someone's docsets needs their permission. docsync ships no docset content.

        **Publish.** Add `[mirror]` (`dir`, `base_url`, `keep`, `grace_period`; see `config/docsync.toml`). Every
        `docsync sync` then keeps each verified archive (a hard link from staging into `dir` when on one file system,
        else an fsynced copy) and ends with a publish; `docsync mirror publish` runs one on its own (downloading again,
        checksum enforced, archives a sync did not keep). The tree:

        - `archives/<sha256>/<Name>.tgz`: the verified archive. Never changes (a new version is a new folder).
        - `archives/<sha256>/<Name>.tgz.tarix`: its tarix index (a gzip'd tar holding `tarixIndex.db`, Kapeli's
          convention), only when the archive is already flushed at every record. Never changes.
        - `feeds/<Name>.xml`: a Dash feed: `<version>`, `<sha256>`, `<url>` = the mirror's copy then the upstream URLs,
          `<other-versions>` (the `keep` newest). Rewritten by every publish.
        - `feeds/zeal/<Name>.xml`: the feed to give Zeal's "Add feed": `<version>` and one `<url>`, the mirror's copy
          (no fallbacks, no `<other-versions>`). Rewritten by every publish.
        - `docsets.atom`: one Atom docset feed, an entry per kept version (`docset:sha256`, enclosure length).
          Rewritten by every publish.
        - `catalogue.json`: Zeal's catalogue shape: `name`, `title`, `versions`, `revision`, `icon`/`icon2x`, `extra`,
          `size`, `sha256`, `feed_url`, `urls`, `tarix: true` when the index is published. Rewritten by every publish.
        - `manifest.lock`: the `docsync.lock` format (schema 1): every published archive's URLs, SHA-256 and size.
          Rewritten by every publish.

        Versions kept side by side (`[[docset]] versions`) are published each as its own docset (`NAME@VERSION`: its
        feed, catalogue entry, archive and checksum); a fleet member whose `[[docset]]` names the same `versions`
        over the mirror's `catalogue.json` installs each from the mirror.

        Readers are never shown a broken tree, even if the publisher is SIGKILLed: archives land and are fsynced before
        any document names them; each document is replaced by rename; an archive stays until no document names it and
        `grace_period` has passed (so a client mid-download finishes). Publisher state: `<state>/mirror.json`. A failed
        publish at the end of a sync is a `failed` event named `[mirror]` whose message says what failed, counted in the
        summary's `failed` (exit 3); the installed docsets are unaffected. A docset whose archive cannot be had for the
        tree (the staging copy is gone and the upstream download fails) is such a failure too, and its feed keeps naming
        the version published before (never dropped, never a feed naming a missing archive); `docsync mirror publish`
        prints the same and exits 3.

        **Tarix indexes.** Each archive placed in the tree is checked once (one inflate pass) for a zlib full flush
        before every tar record; when it has them, the publish writes its index `<archive>.tarix` beside it (indexed as
        it is, every path passing extraction's rules) and marks the docset `"tarix": true` in `catalogue.json`, so tarix
        clients (docsync with `layout = "tarix"`, Zeal main, Dash) download the index instead of building one. An
        archive without flush points (most `tar -czf` output) gets no index: re-encoding it would change the bytes the
        mirror serves under the publisher's SHA-256, which every feed, lock and client checks; its folder keeps a hidden
        `.<Name>.tgz.notarix` so it is not checked again. The index sits only beside the mirror's copy: a Zeal client
        that picks an upstream URL of the catalogue asks the publisher for `<url>.tarix`.

        **Serve.** `config/nginx-mirror.conf` has both tiers, commented for an operator: the mirror (feeds `max-age=60`
        with validators, archives `immutable` for a year) and a caching tier in front (`proxy_cache` with `slice 8m`,
        the cache key includes `$slice_range`, 206 responses cached, `proxy_cache_lock` so each slice is fetched once
        however many clients ask). `base_url` is the URL clients use (the caching tier's). Debian's `nginx` package
        (what `nginx-light` installs in Debian 12) has the slice module: `nginx -V 2>&1 | grep -o
        with-http_slice_module`.

        **Consume.** A docsync host lists the mirror's feed like any other (`[[feed]] url = "<base_url>/feeds/Go.xml"`,
        or `<base_url>/docsets.atom` for all of them). Give Zeal `<base_url>/feeds/zeal/<Name>.xml` in "Add feed": Zeal
        picks a random `<url>` of a feed and never reads `<sha256>`, so on `feeds/<Name>.xml` about half of a Zeal fleet
        would bypass the mirror for the upstream fallbacks; the Zeal feed names only the mirror's copy. docsync installs
        from the mirror's copy, falls back to the upstream URLs the feed carries, and enforces the published SHA-256. A
        feed that states the checksum and serves the archive from its own host keeps that copy first while the host is
        healthy (learned mirror ordering does not "explore" the upstream fallbacks ahead of it). By name: with
        `[catalog.zeal] url = "<base_url>/catalogue.json"` (and `url = ""` for `[catalog.contrib]` /
        `[catalog.cheatsheets]` on a host that should ask nobody else), `[[docset]] name = "Go"` installs from the
        mirror and `docsync catalog` lists it. A catalogue entry that states its archive's `sha256` (the mirror's do) is
        authoritative: its own `urls` in order (the mirror's copy, then the upstream fallbacks), nothing derived from
        `[catalog] mirrors`, and the SHA-256 is enforced; entries without one (Zeal's API) get the derived Kapeli URLs
        first as before.

        **Air-gapped.** `docsync mirror bundle FILE` writes the tree as one plain tar (manifest first, then documents
        and the archives the manifest names; streamed, any size; `--include-retired` also carries every other archive
        still in the tree: older kept versions, retired ones in their grace period). On the offline host, `docsync
        mirror import FILE` (or a folder holding an unpacked tree) installs every docset of the manifest with no
        network, each archive checked against its SHA-256; the trees are byte-identical to the publisher's. Exit 0; 3
        when some docsets failed; 65 for a file that is not a docsync mirror bundle (only the tree's own names are
        accepted: no links, no `..`).
        """#
}
