// The reference of `docsync cat NAME PAGE` (its man page: generate-manual reads the discussion).
extension CatCommand {
    static let manual = #"""
        ```sh
        docsync cat Go pkg/net/http/index.html | w3m -T text/html
        docsync cat CUPS index.html --root ~/docsets
        ```
        PAGE is relative to `NAME.docset/Contents/Resources/Documents`, as `entries` reports it (`page`). Both layouts:
        from a tarix docset the page is read out of `tarix.tgz` with one index lookup (ignoring case, as Zeal does) and
        one inflate bounded by the record. The same path rules as the library's `contents(of:)` (no `..`, no absolute
        path, nothing outside the docset). Exit 0; 64 for an unknown docset, a page it does not have or a path that is
        not a page; 74 on an I/O error.

        `--text` writes the page's visible text instead (what its text index holds): the title, a blank line, then the
        body's text, one line per block, with script, style and template left out and entities decoded; control
        characters escaped. Parsed with libxml2's HTML parser in bounded memory (the text is cut at 2 MiB; a page over
        32 MiB is refused).
        """#
}
