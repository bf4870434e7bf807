import Foundation
import Testing

@testable import DocSyncIndex

/// The one resolver, for every layout real docsets use: Dash, Apple's docsetutil (CUPS), docsync's own
/// links for Zeal, anchors, `dash_ref` fragments and percent-encoding.
@Suite(.timeLimit(.minutes(10))) struct EntryResolverTests {
    static let dash = DocsetLayout.dash
    /// CUPS's XAR docset: `Documentation/` only.
    static let apple = DocsetLayout(documents: .absent, documentation: .directory)
    /// Apple's layout after docsync's install: `Documents/Documentation -> ../Documentation`.
    static let appleLinked = DocsetLayout(
        documents: .directory, documentation: .directory, documentsDocumentation: .link)
    /// Apple's layout with pages relative to `Documentation/`, after docsync's `Documents -> Documentation`.
    static let appleDocumentsLink = DocsetLayout(documents: .link, documentation: .directory)
    /// Both folders, pages in `Documents/` (a Dash docset that also carries a `Documentation/` folder).
    static let both = DocsetLayout(documents: .directory, documentation: .directory)
    /// The publisher's own `Documents/Documentation/` folder wins over `Contents/Resources/Documentation/`.
    static let nested = DocsetLayout(
        documents: .directory, documentation: .directory, documentsDocumentation: .directory)

    @Test(
        arguments: [
            // Dash: pages under Documents/, fragment after '#', markup removed.
            (
                dash, "c/printf.html#printf", nil, "c/printf.html", "printf",
                "Contents/Resources/Documents/c/printf.html"
            ),
            (
                dash,
                "<dash_entry_name=vector><dash_entry_originalName=std::vector>cpp/vector.html#//dash_ref/Class/vector/0",
                nil, "cpp/vector.html", "//dash_ref/Class/vector/0", "Contents/Resources/Documents/cpp/vector.html"
            ),
            (dash, "/abs/lead.html", nil, "abs/lead.html", nil, "Contents/Resources/Documents/abs/lead.html"),
            // Percent-encoding: decoded like Zeal's QUrl::TolerantMode; a lone % is kept.
            (dash, "a%20b/%C3%A9t%C3%A9.html#x", nil, "a b/été.html", "x", "Contents/Resources/Documents/a b/été.html"),
            (dash, "100%.html", nil, "100%.html", nil, "Contents/Resources/Documents/100%.html"),
            (dash, "bad%FF.html", nil, "bad%FF.html", nil, "Contents/Resources/Documents/bad%FF.html"),
            // Apple (CUPS): ZFILEPATH relative to Contents/Resources, fragment in ZANCHOR.
            (
                apple, "Documentation/help/api-cups.html", "cupsGetDests", "Documentation/help/api-cups.html",
                "cupsGetDests", "Contents/Resources/Documentation/help/api-cups.html"
            ),
            (
                appleLinked, "Documentation/help/api-cups.html", "//apple_ref/c/func/cupsGetDests",
                "Documentation/help/api-cups.html", "//apple_ref/c/func/cupsGetDests",
                "Contents/Resources/Documentation/help/api-cups.html"
            ),
            (both, "Documentation/x.html", nil, "Documentation/x.html", nil, "Contents/Resources/Documentation/x.html"),
            (both, "y.html", nil, "y.html", nil, "Contents/Resources/Documents/y.html"),
            (
                nested, "Documentation/x.html", nil, "Documentation/x.html", nil,
                "Contents/Resources/Documents/Documentation/x.html"
            ),
            // Apple without Documents/: other pages are relative to Documentation/.
            (apple, "help/a.html", "", "help/a.html", nil, "Contents/Resources/Documentation/help/a.html"),
            (
                appleDocumentsLink, "help/a.html", nil, "help/a.html", nil,
                "Contents/Resources/Documentation/help/a.html"
            ),
            // Online pages.
            (dash, "https://example.org/x.html#y", nil, "https://example.org/x.html", "y", nil),
        ] as [(DocsetLayout, String, String?, String, String?, String?)])
    func resolves(
        layout: DocsetLayout, rawPath: String, rawFragment: String?, page: String, fragment: String?,
        file: String?
    ) {
        let resolved = EntryResolver.resolve(rawPath: rawPath, rawFragment: rawFragment, layout: layout)
        #expect(resolved.page == page)
        #expect(resolved.fragment == fragment)
        #expect(resolved.file == file)
    }

    @Test(
        arguments: [
            // apple_ref / dash_ref anchors are literal: their % is encoded, as Zeal's QUrl::DecodedMode does.
            ("//apple_ref/cpp/Function/std%3A%3Asort", "//apple_ref/cpp/Function/std%253A%253Asort"),
            ("//dash_ref/Method/a%20b/0", "//dash_ref/Method/a%2520b/0"),
            // Other fragments are already URL-encoded: valid escapes kept, the rest encoded.
            ("sec%20one", "sec%20one"),
            ("sec one", "sec%20one"),
            ("50%", "50%25"),
        ] as [(String, String)])
    func encodesFragments(fragment: String, encoded: String) {
        #expect(EntryResolver.encodeFragment(fragment) == encoded)
    }

    @Test func urls() {
        let docset = "/docs/.docsync/versions/CUPS@1"
        let cups = EntryResolver.resolve(
            rawPath: "Documentation/help/api-cups.html", rawFragment: "cupsGetDests", layout: Self.appleLinked)
        #expect(
            cups.url(docsetPath: docset).absoluteString
                == "file:///docs/.docsync/versions/CUPS@1/Contents/Resources/Documentation/help/api-cups.html"
                + "#cupsGetDests")
        let spaced = EntryResolver.resolve(
            rawPath: "a%20b.html#//dash_ref/Method/x%3Ay/0", rawFragment: nil, layout: Self.dash)
        #expect(
            spaced.url(docsetPath: docset).absoluteString
                == "file:///docs/.docsync/versions/CUPS@1/Contents/Resources/Documents/a%20b.html"
                + "#//dash_ref/Method/x%253Ay/0")
        #expect(spaced.url(docsetPath: docset).path == "\(docset)/Contents/Resources/Documents/a b.html")
    }

    @Test func readsLayoutsFromDisk() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("layout-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let fm = FileManager.default
        try fm.createDirectory(
            atPath: "\(dir)/A.docset/Contents/Resources/Documentation", withIntermediateDirectories: true)
        #expect(DocsetLayout.read(docsetPath: "\(dir)/A.docset") == Self.apple)
        try fm.createDirectory(
            atPath: "\(dir)/A.docset/Contents/Resources/Documents", withIntermediateDirectories: true)
        try fm.createSymbolicLink(
            atPath: "\(dir)/A.docset/Contents/Resources/Documents/Documentation",
            withDestinationPath: "../Documentation")
        #expect(DocsetLayout.read(docsetPath: "\(dir)/A.docset") == Self.appleLinked)
        #expect(DocsetLayout.read(docsetPath: "\(dir)/missing.docset") == .dash)
    }
}
