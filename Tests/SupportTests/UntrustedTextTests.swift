import DocSyncSupport
import Testing

/// Untrusted text is printed with control characters escaped, names are one safe path component, and
/// credentials never leave a URL docsync prints or stores.
@Suite(.timeLimit(.minutes(5))) struct UntrustedTextTests {
    @Test(arguments: [
        ("plain", "plain"),
        ("\u{1B}[31mred", "\\e[31mred"),
        ("a\nb\tc\rd", "a\\nb\\tc\\rd"),
        ("csi\u{9B}31m", "csi\\u{9B}31m"),
        ("del\u{7F}", "del\\u{7F}"),
        ("nul\u{0}", "nul\\u{0}"),
        ("bidi\u{202E}txt", "bidi\\u{202E}txt"),
        ("Über C++ 日本", "Über C++ 日本"),
    ])
    func controlCharactersAreEscaped(_ input: String, _ expected: String) {
        #expect(input.escapingControlCharacters == expected)
    }

    @Test(
        arguments: [
            ("Swift", nil),
            ("C++ (5.2)", nil),
            ("", "empty"),
            (".", "'.' is not a folder name"),
            ("..", "'..' is not a folder name"),
            ("a/b", "contains '/'"),
            ("nul\u{0}", "contains NUL"),
            ("\u{1B}[31mred", "contains control characters"),
            ("line\nbreak", "contains control characters"),
            ("c1\u{85}", "contains control characters"),
            ("del\u{7F}", "contains control characters"),
            (String(repeating: "é", count: 128), "longer than 255 bytes (UTF-8)"),
        ] as [(String, String?)])
    func pathComponents(_ input: String, _ problem: String?) {
        #expect(PathComponent.problem(input) == problem)
    }

    @Test(arguments: [
        ("https://host/feed.xml", "https://host/feed.xml"),
        ("https://user:secret@host/feed.xml", "https://user:***@host/feed.xml"),
        ("https://user@host/f", "https://user@host/f"),
        ("http://a:b@c@host:8080/x?y=1", "http://a:***@host:8080/x?y=1"),
        ("https://h/a.tgz?token=s3cr3t&v=2", "https://h/a.tgz?token=***&v=2"),
        ("https://h/a?X-Amz-Signature=abc;key=k#frag", "https://h/a?X-Amz-Signature=***;key=***#frag"),
        ("https://h/a?tokens=keep", "https://h/a?tokens=keep"),
        (
            "GET https://u:pw@h/x failed; retry https://v:pw2@g/y?api_key=1",
            "GET https://u:***@h/x failed; retry https://v:***@g/y?api_key=***"
        ),
        ("no url here: a:b@c", "no url here: a:b@c"),
        ("not a scheme :/x//u:pw@h :/", "not a scheme :/x//u:pw@h :/"),
        ("x:://u:pw@h/", "x:://u:***@h/"),
        ("é://u:pw@h/?key=1", "é://u:***@h/?key=***"),
    ])
    func credentialsAreRedacted(_ input: String, _ expected: String) {
        #expect(input.redactingCredentials == expected)
    }
}
