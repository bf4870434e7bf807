import DocSyncIndex
import Foundation
import Testing
import TestSupport

/// A search filtered to a docset that is not installed (or to a group that does not exist) is a typed error, as
/// `sync(only:)` is, thrown before anything is read; names match case-insensitively, and a group's members that are
/// not installed are no error.
@Suite(.timeLimit(.minutes(5))) struct UnknownDocsetSearchTests {
    static func index(_ dir: TemporaryDirectory) -> DocsetIndex {
        DocsetIndex(
            docsets: [IndexedDocset(name: "Go", version: nil, path: dir.appending("Go.docset"))],
            stateDirectory: dir.appending("state"), groups: DocsetGroups(["web": ["Go", "CSS"]]))
    }

    @Test(arguments: [(["Nope"], "Nope"), (["go", "Rust"], "Rust"), (["@none"], "@none")])
    func aDocsetThatIsNotInstalledIsAnError(docsets: [String], named: String) async throws {
        let dir = try TemporaryDirectory("unknown-search")
        defer { dir.remove() }
        do {
            _ = try await Self.index(dir).search(SearchQuery("x", docsets: docsets))
            Issue.record("searched \(docsets)")
        } catch {
            #expect(error.kind == .notInstalled && error.docset == named && error.message.contains(named))
            #expect(!FileManager.default.fileExists(atPath: dir.appending("state")))  // nothing was read or built
        }
    }

    @Test(arguments: [["go"], ["@web"], []])
    func installedNamesAndGroupsAreSearched(docsets: [String]) async throws {
        let dir = try TemporaryDirectory("unknown-search")
        defer { dir.remove() }
        // Go.docset's folder is missing: searched, it fails as a docset (not as a query).
        let results = try await Self.index(dir).search(SearchQuery("x", docsets: docsets))
        #expect(results.failures.map(\.docset) == ["Go"])
    }
}
