import DocSync
import DocSyncIndex
import Foundation
import TestSupport
import Testing

/// Text indexes of Apple's layout (`Contents/Resources/Documentation/`, Core Data indexes, as CUPS ships) in both
/// layouts: the extracted tree (through the links docsync makes for Zeal) and the tarix store (which holds no
/// links): the same pages found under the same names, the names `entries` gives, each page readable as text and its
/// snippet cut.
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct FullTextAppleLayoutTests {
    /// Each fixture's pages as the text index names them (relative to `Documents/`, as `entries` gives them).
    static let expected: [String: [String]] = [
        // Core Data paths `Documentation/…`, no `Documents/`.
        "CUPS": ["Documentation/help/api-cups.html", "Documentation/help/api-filter.html",
                 "Documentation/help/api-ppd.html"],
        // Paths relative to `Documentation/`, no `Documents/`: `Documentation/` stands for `Documents/`.
        "Relative": ["api/start.html", "api/stop.html", "index.html"],
        // `Documentation/…` paths beside a `Documents/` folder.
        "Beside": ["Documentation/Widget Class.html", "Documentation/overview.html", "index.html"],
    ]

    /// Installs `kind` as `<kind>-<layout>` for both layouts, every page's text rewritten to hold `unicornword`.
    static func install(_ kind: String, dir: TemporaryDirectory, engine: SyncEngine) async throws {
        let fixture = try ReaderLayoutTests.fixture(kind, in: dir.appending("sources-\(kind)"))
        let resources = "\(fixture.folder)/Contents/Resources"
        let pages = FileManager.default.enumerator(atPath: resources)?.compactMap { $0 as? String } ?? []
        for page in pages where page.hasSuffix(".html") {
            let html = "<html><head><title>T \(page)</title></head><body><p>A unicornword in \(kind).</p></body></html>"
            try Data(html.utf8).write(to: URL(fileURLWithPath: "\(resources)/\(page)"))
        }
        let archive = dir.appending("\(kind).tgz")
        try IndexFixture.archive(fixture.folder, to: archive)
        for layout in [InstalledDocset.Layout.extracted, .tarix] {
            try await engine.install(archive: archive, name: "\(kind)-\(layout.rawValue)", version: "1", layout: layout)
        }
    }

    @Test(arguments: ["CUPS", "Relative", "Beside"])
    func applePagesAreFoundAndReadInBothLayouts(kind: String) async throws {
        let dir = try TemporaryDirectory("fulltext-apple")
        defer { dir.remove() }
        let engine = SyncEngine(
            configuration: DocSyncConfiguration(
                root: dir.appending("root"), staging: dir.appending("staging"), state: dir.appending("state")))
        try await Self.install(kind, dir: dir, engine: engine)
        let index = try engine.index()
        let installed = try engine.installedDocsets()
        for layout in ["extracted", "tarix"] {
            let name = "\(kind)-\(layout)"
            let results = try await index.fullTextSearch(TextSearchQuery("unicornword", docsets: [name], limit: 100))
            #expect(results.failures.isEmpty && results.missing.isEmpty && results.building.isEmpty, "\(name)")
            #expect(results.hits.map(\.page).sorted() == Self.expected[kind], "\(name)")
            for hit in results.hits {
                #expect(hit.snippet.contains("**unicornword**"), "\(name) \(hit.page): \(hit.snippet)")
                let file = hit.page.replacingOccurrences(of: "Documentation/", with: "")
                #expect(hit.title.hasPrefix("T Docum") && hit.title.hasSuffix(file), "\(name): \(hit.title)")
            }
            let docset = try #require(installed.first { $0.name == name })
            for page in Self.expected[kind] ?? [] {
                let text = try await docset.text(of: page)
                #expect(text.text.contains("unicornword in \(kind)"), "\(name) \(page)")
            }
            // Every page `entries` names is one the text index has (under the same name).
            var entryPages = Set<String>()
            for try await entry in docset.entries() { entryPages.insert(entry.page) }
            #expect(entryPages.isSubset(of: Set(Self.expected[kind] ?? [])), "\(name): \(entryPages.sorted())")
        }
    }

    /// `TarixPageNaming`: a store path → the page the text index names (nil: no reader reaches it).
    @Test(arguments: [
        (false, false, "Contents/Resources/Documents/a/b.html", "a/b.html"),
        (true, true, "Contents/Resources/Documents/a/b.html", "a/b.html"),
        (false, true, "Contents/Resources/Documentation/help/x.html", "Documentation/help/x.html"),  // CUPS
        (true, true, "Contents/Resources/Documentation/x.html", "Documentation/x.html"),  // beside Documents/
        (false, false, "Contents/Resources/Documentation/api/x.html", "api/x.html"),  // Documentation/-relative
        (true, false, "Contents/Resources/Documentation/x.html", nil),  // not reached through Documents/
        (false, false, "Contents/Resources/Other/x.html", nil),
        (false, false, "Contents/Info.plist", nil),
    ] as [(Bool, Bool, String, String?)])
    func tarixPageNames(hasDocuments: Bool, prefixed: Bool, path: String, page: String?) {
        #expect(TarixPageNaming(hasDocuments: hasDocuments, indexIsPrefixed: prefixed).page(of: path) == page)
    }
}
