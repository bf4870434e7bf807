import DocSyncInstall
import DocSyncSupport
import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// The per-version content record `docsync diff` merges: exact differences whatever the input order, text that
/// needs escaping, and an empty side.
@Suite(.timeLimit(.minutes(5)))
struct VersionContentTests {
    typealias Page = VersionContent.Page
    typealias Entry = VersionContent.Entry

    func diff(_ old: VersionContent?, _ new: VersionContent) throws -> [VersionContentDiff.Change] {
        let dir = try TemporaryDirectory("content")
        defer { dir.remove() }
        func open(_ content: VersionContent, _ name: String) throws -> Int32 {
            try Data(content.encoded()).write(to: URL(fileURLWithPath: dir.appending(name)))
            return Glibc.open(dir.appending(name), O_RDONLY)
        }
        let oldFD = try old.map { try open($0, "old") }
        let newFD = try open(new, "new")
        defer {
            if let oldFD { close(oldFD) }
            close(newFD)
        }
        var changes: [VersionContentDiff.Change] = []
        try VersionContentDiff.diff(old: oldFD, new: newFD, names: ("old", "new")) {
            changes.append($0)
            return true
        }
        return changes
    }

    func moved(_ page: String) -> Entry {
        Entry(name: "moved", type: "Function", rawType: "func", page: page, fragment: "x")
    }

    @Test func differencesAreExactWhateverTheOrder() throws {
        let odd = "tab\tand%25 new\nline.html"
        let old = VersionContent(
            pages: [
                Page(path: "b.html", sha256: String(repeating: "1", count: 64)),
                Page(path: "a.html", sha256: String(repeating: "2", count: 64)),
                Page(path: odd, sha256: String(repeating: "3", count: 64)),
                Page(path: "gone.html", sha256: String(repeating: "4", count: 64)),
            ],
            entries: [
                Entry(name: "keep", type: "Function", rawType: "func", page: "a.html", fragment: nil),
                Entry(name: "moved", type: "Function", rawType: "func", page: "a.html", fragment: "x"),
                Entry(name: "keep", type: "Function", rawType: "func", page: "a.html", fragment: nil),
            ])
        let new = VersionContent(
            pages: [
                Page(path: odd, sha256: String(repeating: "3", count: 64)),
                Page(path: "a.html", sha256: String(repeating: "2", count: 32) + String(repeating: "9", count: 32)),
                Page(path: "b.html", sha256: String(repeating: "5", count: 64)),
                Page(path: "c.html", sha256: String(repeating: "6", count: 64)),
            ],
            entries: [
                Entry(name: "moved", type: "Function", rawType: "func", page: "b.html", fragment: "x"),
                Entry(name: "keep", type: "Function", rawType: "func", page: "a.html", fragment: nil),
                Entry(name: "tab\tname", type: "Type", rawType: "t", page: odd, fragment: ""),
            ])
        let changes = try diff(old, new)
        // a.html differs only past the 32 digits kept: the same page (a collision this short is not a concern).
        #expect(
            changes == [
                .page("b.html", .modified), .page("c.html", .added), .page("gone.html", .removed),
                .entry(moved("a.html"), added: false), .entry(moved("b.html"), added: true),
                .entry(Entry(name: "tab\tname", type: "Type", rawType: "t", page: odd, fragment: ""), added: true),
            ])
        #expect(try diff(new, new).isEmpty)
        let all = try diff(nil, new)
        let added = all.filter {
            switch $0 {
            case .page(_, let change): change == .added
            case .entry(_, let added): added
            }
        }
        #expect(all.count == 4 + 3 && added.count == all.count)
    }
}
