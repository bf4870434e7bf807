import DocSync
import Foundation
import TestSupport
import Testing

/// A search hit carries its entry's page, fragment and raw type, so the DocC recipe — read `hit.page` from the
/// docset — works for Apple's layouts (CUPS-like, `Documentation/`-relative, beside `Documents/`) as for Dash's; and
/// `diff` of a first install lists every page an entry names.
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct AppleLayoutHitTests {
    @Test(arguments: ReaderLayoutTests.kinds)
    func aHitsPageReadsFromTheDocset(kind: String) async throws {
        let dir = try TemporaryDirectory("apple-hits")
        defer { dir.remove() }
        let fixture = try ReaderLayoutTests.fixture(kind, in: dir.appending("sources"))
        try IndexFixture.archive(fixture.folder, to: dir.appending("\(kind).tgz"))
        let root = dir.appending("root")
        let installer = ArchiveInstall(root: root, gracePeriod: .seconds(60))
        let docset = try await installer.install(
            archive: dir.appending("\(kind).tgz"), name: fixture.name, title: nil, version: "1", revision: nil,
            layout: .extracted)
        let configuration = DocSyncConfiguration(
            root: root, staging: dir.appending("staging"), state: dir.appending("state"))
        let engine = SyncEngine(configuration: configuration)
        let index = try engine.index()
        var entries: [DocsetEntry] = []
        for try await entry in docset.entries() { entries.append(entry) }
        #expect(entries.count == fixture.entryCount)
        for entry in entries {
            let hits = try await index.search(SearchQuery(entry.name, limit: 50)).hits
            let hit = try #require(hits.first { $0.name == entry.name }, "\(kind): no hit for \(entry.name)")
            #expect(hit.page == entry.page && hit.fragment == entry.fragment && hit.rawType == entry.rawType, "\(kind)")
            #expect(hit.type == entry.type && hit.url == entry.url, "\(kind): \(hit.url) vs \(entry.url)")
            // The recipe: the page's bytes, by the hit's page, are the file its URL names.
            let bytes = try await docset.contents(of: hit.page)
            #expect(bytes == Array(try Data(contentsOf: URL(fileURLWithPath: hit.url.path))), "\(kind): \(hit.page)")
        }
        // A first install: every page is added, and every entry's page is one of them.
        let diff = try await engine.diff(fixture.name)
        let pages = Set(diff.pages.map(\.page))
        #expect(diff.from == nil && diff.pages.allSatisfy { $0.change == .added })
        #expect(diff.entries.count == fixture.entryCount)
        for entry in entries where !entry.page.hasPrefix("http") {
            #expect(pages.contains(entry.page), "\(kind): \(entry.page) not among \(pages.sorted())")
        }
    }
}
