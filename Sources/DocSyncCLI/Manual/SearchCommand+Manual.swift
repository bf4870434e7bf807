// The reference of `docsync search` (its man page: generate-manual reads the discussion).
extension SearchCommand {
    static let manual = #"""
        ```sh
        # name, type, docset and URL of the best 20 hits
        docsync search printf
        docsync search nsmarr --docset Apple_API_Reference --type Method --limit 5
        # one JSON object per hit
        docsync search vector --json | jq -r .url
        # only the docsets of the [[group]] named "web"
        docsync search fetch --docset @web
        # a root installed with `install --root`: no configuration needed
        docsync search cupsGetDests --root ~/docsets
        ```
        Reads both index formats (Dash's `searchIndex`, Apple's Core Data tokens), read-only. Case is ignored; exact
        matches come first, then prefix, substring and fuzzy (the query's characters in order, `nsmarr` →
        `NSMutableArray`) matches, shorter names first within each. `--docset NAME` (repeatable) and `--type T`
        (normalised types such as Function, Method, Class; aliases like `func`, `clm` accepted) filter; `--limit N`
        (default 20; 1 to 10,000, anything else is a usage error, exit 64). Output is `dasht-query-line`'s: `name = …`,
        `type = …`, `from = …`, `url = …` per hit (untrusted text with control characters escaped); `--json` prints
        `{"name","type","docset","version","url","match","page","fragment","raw_type"}` per line, `match` being
        `exact`, `prefix`, `substring` or `fuzzy`; `page`, `fragment` (absent when none) and `raw_type` as `docsync
        entries --json` names them (the page relative to the documents folder, `Documentation/…` in Apple's layout). A docset whose `docSet.dsidx` cannot be read (not SQLite, unknown schema, more than 5 million entries)
        is named on stderr with the reason, and the others still answer. Exit 0 with hits, 1 without, 3 when some docset
        could not be searched, 64 for an unknown `@group`, 78 for a bad configuration.

        `search`, `entries`, `status` and `verify` take `--root DIR` and `--state DIR` like `install` does: with
        `--root` and no configuration file (neither `--config` nor one in the usual places), docsync's defaults apply to
        the rest (the derived search indexes go to `$XDG_STATE_HOME/docsync/index/`, or `--state`). A configuration file
        that exists is still read, `--root` / `--state` overriding its `root` / `state`.

        Groups scope a search (Zeal's oldest open request): in the configuration,
        ```toml
        [[group]]
        name = "web"
        docsets = ["JavaScript", "CSS", "HTML"]
        ```
        and `--docset @web` selects those docsets (with any plain `--docset NAME` beside it) in `search` and `entries`;
        the library takes the same `@web` in `SearchQuery.docsets` (`DocSyncConfiguration.groups`,
        `DocsetIndex(groups:)`). Names are matched ignoring case; a group named twice, without `docsets` or with an `@`
        is a configuration error naming the key (`group[2].docsets`).
        Keywords, as in Zeal and Dash: `py:open` searches only the docsets with the keyword `py`, `py,django:view`
        those with either; `html:` alone lists the `html` docsets' entries A-Z (at most 1000; --limit defaults to
        1000 then). `std::vector` is plain text (a `:` followed by another is not a keyword separator). A docset's
        keywords are its Info.plist's DocSetPlatformFamily, DashDocSetPluginKeyword, DashDocSetKeyword and
        DashDocSetFamily, its meta.json's extra.keywords, and `keywords = [...]` of its [[docset]] table; `docsync
        status` shows them. A keyword no docset has: no hits, a message naming the keywords there are, exit 1.
        ```sh
        # Zeal's keyword prefixes (`html:` alone lists A-Z)
        docsync search 'py,django:view'
        # one version kept side by side (`install --side-by-side`)
        docsync search open --docset Python_3@3.12
        ```
        `--text` searches what the pages say instead (each docset's text index, built at install and sync; `[search]
        full_text`): words are AND-ed, "quoted phrases" match in order, `word*` is a prefix, `-word` (or `-"a phrase"`)
        excludes; case and diacritics are ignored; ranked by BM25 with the title weighted ten times the body. A query
        on at most 2,000 pages of a docset is ranked over all of them; a very common word (a query on more: every
        word on thousands of pages) is ranked among the first 2,000 pages it matches in the docset's page order and
        the first 200 whose title holds its words (those lead), so its cost does not grow with the docset; a phrase
        of common words, or a word minus one on nearly every page, finds its candidate pages from the index's word
        pairs (or its rarest word) and is ranked over all of them when at most 150 match, else among the first 150
        in page order and the 200 titled ones; every page shown matches, and `--limit N` above 2,000 (150) scores N
        pages. Prints
        title, page (relative to the documents folder, as `docsync entries` gives it), docset, a snippet with the
        matched words between `**` and the URL; with `--json` one object per line with docset, version, page, title,
        snippet, url. A docset whose text index is still being built, or has none yet, is named on standard error.
        Exit status: 0 with hits, 1 without, 64 for a query over 1 KiB, without a word, or with a syntax error (its
        position named), 3 when a text index could not be read. Keyword prefixes scope it as they scope a name search
        (`py:"event loop"`; a keyword no docset has: exit 1 naming the keywords there are).
        ```sh
        docsync search --text '"event loop" -deprecated' --docset Python_3 --limit 5
        ```
        """#
}
