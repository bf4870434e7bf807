// The reference of `docsync feed parse` (its man page: generate-manual reads the discussion).
extension FeedParseCommand {
    static let manual = #"""
        ```sh
        # table of entries
        docsync feed parse Feeds/cups-docsetutil.atom
        # one JSON object
        docsync feed parse Feeds/Swift.xml --json
        docsync feed parse feed.atom --json \
            --base-url https://example.com/feeds/feed.atom
        docsync feed parse https://kapeli.com/feeds/Swift.xml
        # validate only: no output, exit 0 or 65
        docsync feed parse feed.atom --check
        ```
        Atom 1.0 with Apple's docset extension (matched by namespace URI, any prefix) or Dash/Zeal XML, told apart by
        the root element. Relative links resolve against `xml:base` and the document URL per RFC 3986; IRIs (non-ASCII
        in `href` or `xml:base`) become URIs by percent-encoding their UTF-8 (RFC 3987 §3.1). Dates are read as real
        feeds write them (RFC 3339, and single-digit fields, missing seconds, lowercase `t`/`z`, a space for `T`,
        `+0100`, RFC 822); one that is still unreadable drops that field with a warning (`feed-warning` event; on
        standard error for `feed parse`), never the feed. Atom `<published>` stands in for a missing `<updated>`.
        Versions, checksums and archives stay strict. `--json` prints
        `{"schema","format","id","title","updated","links":[…],"entries":[{"id","title","updated","identifier","version",
        "revision","links":[{"href","rel","type","length","title","hreflang"}],"archives":[{"url","type","length"}],
        "sha256"}]}` (absent values omitted; dates UTC `YYYY-MM-DDTHH:MM:SSZ`; `archives` are the enclosures for Atom,
        the mirrors in feed order for Dash). A feed that does not parse prints `docsync: FEED:LINE:COL: reason` and
        exits 65; a failed fetch exits 69; an unreadable file, or a libxml2 that cannot be loaded (it is loaded on first
        use), 74. The parser streams (flat memory on a 100 MB feed), never loads the network or external entities,
        refuses any DOCTYPE, and caps size (32 MiB; `--max-bytes N` to change) and depth (64). `Feeds/README.md` says
        what each example feed shows.
        """#
}
