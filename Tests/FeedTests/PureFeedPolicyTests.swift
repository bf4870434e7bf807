import Testing

@testable import DocSyncFeed

/// The small pure rules the parsers lean on: one row per rule.
@Suite(.timeLimit(.minutes(10)))
struct DashVersionTests {
    @Test(
        arguments: [
            ("version and revision", "13.x/2", "13.x", "2"),
            ("revision only", "/9", nil, "9"),
            ("non-integer revision", "/1.35", nil, "1.35"),
            ("free-form version, no revision", "SE26", "SE26", nil),
            ("version with spaces", "6.6 (modern)", "6.6 (modern)", nil),
            ("whitespace around", "\n  5.10/3 \n", "5.10", "3"),
            ("version with empty revision", "2.0/", "2.0", nil),
            ("split at the first slash", "1/2/3", "1", "2/3"),
            ("empty", "", nil, nil),
        ] as [(String, String, String?, String?)])
    func splits(rule: String, text: String, version: String?, revision: String?) {
        #expect(DashVersion(text) == DashVersion(version: version, revision: revision), "\(rule)")
    }
}

@Suite(.timeLimit(.minutes(10)))
struct DashFeedNameTests {
    @Test(
        arguments: [
            ("URL stem", "https://kapeli.com/feeds/Swift.xml", nil, "Swift"),
            ("percent-decoded URL stem", "https://kapeli.com/feeds/C%2B%2B.xml", nil, "C++"),
            ("query and fragment ignored", "https://x.org/feeds/Go.xml?v=2#top", nil, "Go"),
            ("URL preferred over the path", "https://x.org/feeds/Rust.xml", "/tmp/other.xml", "Rust"),
            ("URL without a file name falls back to the path", "https://x.org/feeds/", "Feeds/C++.xml", "C++"),
            ("URL without a path falls back to the path", "https://x.org", "Lua.xml", "Lua"),
            ("file stem with parentheses", nil, "Feeds/Android_(Kotlin).xml", "Android_(Kotlin)"),
            ("dots kept, only .xml dropped", nil, "Vue.js.xml", "Vue.js"),
            ("no extension", nil, "feeds/NodeJS", "NodeJS"),
            ("nothing to name it by", nil, nil, nil),
        ] as [(String, String?, String?, String?)])
    func names(rule: String, url: String?, path: String?, expected: String?) {
        #expect(DashFeedName.name(documentURL: url, path: path) == expected, "\(rule)")
    }
}

@Suite(.timeLimit(.minutes(10)))
struct FeedTextTests {
    @Test(
        arguments: [
            ("text: whitespace collapsed and trimmed", "  CUPS\n   Documentation \t", nil, "CUPS Documentation"),
            ("text: markup-like characters kept", "a < b & c", "text", "a < b & c"),
            ("html: tags dropped", "Widgets <em>3.1</em>", "html", "Widgets 3.1"),
            ("html: entities decoded after tags", "&lt;b&gt; &amp;amp; &#233;&#x2014;", "html", "<b> &amp; é—"),
            ("html: comments dropped", "a<!-- <b>x</b> -->b", "html", "ab"),
            ("html: unknown entity kept", "AT&T &bogus; x", "html", "AT&T &bogus; x"),
            ("html: type matched case-insensitively", "<i>x</i>", "HTML", "x"),
            ("html: unclosed tag dropped to the end", "a <b", "html", "a "),
            ("xhtml: descendant text as given", "Example Docsets & Friends", "xhtml", "Example Docsets & Friends"),
        ] as [(String, String, String?, String)])
    func reduces(rule: String, text: String, type: String?, expected: String) {
        #expect(FeedText.plain(text, type: type) == FeedText.collapsingWhitespace(expected), "\(rule)")
    }
}

@Suite(.timeLimit(.minutes(10)))
struct FeedChecksumTests {
    static let digest = "5f70bf18a086007016e948b04aed3b82103a36bea41755b6cddfaf10ace3c6ef"

    @Test(
        arguments: [
            ("lowercase accepted", digest, digest),
            ("uppercase lowercased", digest.uppercased(), digest),
            ("whitespace around accepted", "\n  \(digest)  ", digest),
            ("63 digits refused", String(digest.dropLast()), nil),
            ("65 digits refused", digest + "0", nil),
            ("non-hex refused", String(digest.dropLast()) + "g", nil),
            ("inner space refused", String(digest.prefix(32)) + " " + String(digest.suffix(32)), nil),
            ("sha256: prefix refused", "sha256:" + digest, nil),
        ] as [(String, String, String?)])
    func validates(rule: String, text: String, expected: String?) {
        #expect(FeedChecksum.normalizedSHA256(text) == expected, "\(rule)")
    }
}

@Suite(.timeLimit(.minutes(10)))
struct URIReferenceTests {
    @Test(arguments: [
        ("absolute path dot segment", "http://a/./g", "http://a/g"),
        ("absolute path dot-dot above root", "http://a/../g", "http://a/g"),
        ("mid-path dot-dot", "http://a/b/c/./../../g", "http://a/g"),
        ("trailing dot", "http://a/b/c/.", "http://a/b/c/"),
        ("trailing dot-dot", "http://a/b/c/..", "http://a/b/"),
        ("query untouched", "http://a/b?x=/../y", "http://a/b?x=/../y"),
        ("fragment untouched", "http://a/b#/./c", "http://a/b#/./c"),
        ("clean URI unchanged", "https://x.org/feeds/a.xar", "https://x.org/feeds/a.xar"),
        ("relative reference unchanged", "a/../b", "a/../b"),
        ("dots inside names kept", "http://a/g../..g/.g", "http://a/g../..g/.g"),
    ])
    func removesDotSegments(rule: String, uri: String, expected: String) {
        #expect(URIReference.removingDotSegments(uri) == expected, "\(rule)")
    }

    @Test(arguments: [
        ("space escaped", "a b.xar", "a%20b.xar"),
        ("non-ASCII escaped as UTF-8", "ä.xar", "%C3%A4.xar"),
        ("existing escapes kept", "a%20b.xar", "a%20b.xar"),
        ("reserved characters kept", "x?a=1&b=(2)#f", "x?a=1&b=(2)#f"),
        ("braces and quotes escaped", "{\"}", "%7B%22%7D"),
    ])
    func escapesInvalidCharacters(rule: String, reference: String, expected: String) {
        #expect(URIReference.escapingInvalidCharacters(reference) == expected, "\(rule)")
    }
}
