import Foundation
import TestSupport
import Testing

@testable import DocSyncIndex

@Suite(.timeLimit(.minutes(10))) struct EntryTypeTests {
    @Test(arguments: [
        ("clm", "Method"), ("instm", "Method"), ("intfm", "Method"), ("Instance Methods", "Method"),
        ("func", "Function"), ("ffunc", "Function"), ("Public Member Functions", "Function"),
        ("cl", "Class"), ("tmplt", "Class"), ("tdef", "Type"), ("Typedefs", "Type"), ("econst", "Constant"),
        ("enumelt", "Constant"), ("instp", "Property"), ("intf", "Protocol"), ("struct", "Structure"),
        ("Data Fields", "Field"), ("ns", "Namespace"), ("macro", "Macro"), ("var", "Variable"), ("cat", "Category"),
        ("opfunc", "Operator"), ("binding", "Binding"), ("doc", "Guide"), ("Public Attributes", "Attribute"),
        ("Enumerations", "Enumeration"), ("Public Events", "Event"), ("Public Constructors", "Constructor"),
        // Dash's own names and unknown names pass through; whitespace is trimmed.
        ("Function", "Function"), ("Class", "Class"), ("Hook", "Hook"), (" clm ", "Method"), ("", ""),
    ])
    func normalises(raw: String, expected: String) {
        #expect(EntryType.normalise(raw) == expected)
    }

    @Test func aboutAHundredAliasesNoneTwice() {
        let all = EntryType.groups.flatMap(\.aliases)
        #expect(all.count >= 100)
        #expect(Set(all).count == all.count)
    }
}

@Suite(.timeLimit(.minutes(10))) struct EntryLocationTests {
    @Test(
        arguments: [
            // Dash: fragment after '#', markup anywhere before the page.
            ("c/printf.html#printf", nil, "c/printf.html", "printf"),
            ("c/printf.html", nil, "c/printf.html", nil),
            (
                "<dash_entry_name=vector><dash_entry_originalName=std::vector>cpp/vector.html#//dash_ref/Class/vector",
                nil,
                "cpp/vector.html", "//dash_ref/Class/vector"
            ),
            ("a.html#<dash_entry_menuDescription=x>frag", nil, "a.html", "frag"),
            ("a.html#", nil, "a.html", nil),
            ("<dash_entry_unterminated", nil, "", nil),
            // Core Data: the fragment column wins; the path keeps any '#'.
            (
                "documentation/NSString.html", "//apple_ref/occ/cl/NSString", "documentation/NSString.html",
                "//apple_ref/occ/cl/NSString"
            ),
            ("x.html", "", "x.html", nil),
        ] as [(String, String?, String, String?)])
    func splits(rawPath: String, rawFragment: String?, path: String, fragment: String?) {
        let location = EntryLocation(rawPath: rawPath, rawFragment: rawFragment)
        #expect(location.path == path)
        #expect(location.fragment == fragment)
    }

    /// The byte scan for ASCII paths finds the `#` Character search finds, and non-ASCII paths (a `#` joined to a
    /// combining mark is no `#`) keep the Character search: seeded random paths from a small alphabet.
    @Test func firstHashIsTheFirstHashCharacter() {
        var random = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        let alphabet = ["a", "B", "/", ".", "#", "%23", "\u{301}", "é", "\r\n", "<", ">", "😀"]
        for _ in 0..<5_000 {
            let count = Int.random(in: 0...12, using: &random)
            let text = (0..<count).map { _ in alphabet.randomElement(using: &random)! }.joined()
            #expect(
                EntryLocation.firstHash(in: text) == text.firstIndex(of: "#"),
                "\(text.debugDescription) (seed \(random.seed))")
        }
        let joined = "a#\u{301}#b"  // the first '#' carries a combining mark: the second is the first Character "#"
        #expect(EntryLocation.firstHash(in: joined) == joined.utf8.index(joined.utf8.startIndex, offsetBy: 4))
    }

    @Test func urls() {
        let docset = "/docs/.docsync/versions/C@1"
        #expect(
            EntryLocation(path: "c/printf.html", fragment: "printf").url(docsetPath: docset).absoluteString
                == "file:///docs/.docsync/versions/C@1/Contents/Resources/Documents/c/printf.html#printf")
        #expect(
            EntryLocation(path: "a b.html", fragment: "//apple_ref/occ/instm/NSString/length").url(docsetPath: docset)
                .absoluteString
                == "file:///docs/.docsync/versions/C@1/Contents/Resources/Documents/a%20b.html"
                + "#//apple_ref/occ/instm/NSString/length")
        #expect(
            EntryLocation(path: "https://example.org/x.html", fragment: "y").url(docsetPath: docset).absoluteString
                == "https://example.org/x.html#y")
    }
}

@Suite(.timeLimit(.minutes(10))) struct MatchKindTests {
    @Test(
        arguments: [
            ("map", "map", MatchKind.exact), ("mapper", "map", .prefix), ("hashmap", "map", .substring),
            ("m_a_p", "map", .fuzzy), ("mxaxp", "map", .fuzzy), ("amp", "map", nil), ("ma", "map", nil),
            ("nsmutablearray", "nsmarr", .fuzzy), ("x", "", nil),
        ] as [(String, String, MatchKind?)])
    func classifies(name: String, query: String, expected: MatchKind?) {
        #expect(MatchKind.classify(name: Array(name.utf8), query: Array(query.utf8)) == expected)
    }
}
