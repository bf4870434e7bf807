import DocSyncTarix
import Foundation
import TestSupport
import Testing

struct HostileCase: Sendable, CustomTestStringConvertible {
    let label: String
    let entries: [String]
    /// What the error must name.
    let subject: String
    let kind: String
    var testDescription: String { label }
}

/// Archives whose entries extraction would refuse, or a tarix store cannot hold, are refused while building the
/// index, naming the entry.
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct TarixUnsafeArchiveTests {
    static let root = "dir:Sample.docset/"
    static let cases = [
        HostileCase(
            label: "parent traversal", entries: [root, "file:Sample.docset/../evil.html"],
            subject: "evil.html", kind: "unsafe_path"),
        HostileCase(
            label: "absolute path", entries: [root, "file:/etc/evil.html"], subject: "/etc/evil.html",
            kind: "unsafe_path"),
        HostileCase(
            label: "outside the docset folder", entries: [root, "file:Other.docset/x.html"],
            subject: "Other.docset/x.html", kind: "unsafe_path"),
        HostileCase(
            label: "no docset folder", entries: ["file:Contents/Info.plist"], subject: "Contents/Info.plist",
            kind: "unsafe_path"),
        HostileCase(
            label: "empty component", entries: [root, "file:Sample.docset/a//b.html"],
            subject: "a//b.html", kind: "unsafe_path"),
        HostileCase(
            label: "symlink", entries: [root, "file:Sample.docset/a.html", "symlink:Sample.docset/l.html:a.html"],
            subject: "l.html", kind: "unsupported_entry"),
        HostileCase(
            label: "hard link",
            entries: [root, "file:Sample.docset/a.html", "hardlink:Sample.docset/h.html:Sample.docset/a.html"],
            subject: "h.html", kind: "unsupported_entry"),
        HostileCase(
            label: "fifo", entries: [root, "fifo:Sample.docset/pipe"], subject: "pipe", kind: "unsupported_entry"),
        HostileCase(
            label: "nested docset", entries: [root, "file:Sample.docset/Inner.docset/Contents/x.html"],
            subject: "Inner.docset", kind: "unsupported_entry"),
        HostileCase(
            label: "case collision", entries: [root, "file:Sample.docset/Page.html", "file:Sample.docset/page.html"],
            subject: "page.html", kind: "unsupported_entry"),
        HostileCase(
            label: "duplicate", entries: [root, "file:Sample.docset/p.html", "file:Sample.docset/p.html"],
            subject: "p.html", kind: "unsupported_entry"),
    ]

    @Test(arguments: cases)
    func refused(_ hostile: HostileCase) throws {
        var random = TestRandom(label: hostile.label)
        let fixture = try TarixFixture.make(&random, count: 1, longNames: false)
        defer { fixture.dir.remove() }
        let source = fixture.dir.appending("hostile.tgz")
        _ = try fixture.python(ZealScripts.hostile, [source] + hostile.entries)
        do {
            let store = try fixture.build(source, label: "hostile")
            Issue.record("built \(store.summary) from \(hostile.entries)")
        } catch let error as TarixError {
            #expect(error.kind == hostile.kind, "\(error)")
            #expect(error.subject.contains(hostile.subject), "\(error)")
        }
    }

    @Test func appleDoubleAndMacOSFolderAreLeftOut() throws {
        var random = TestRandom(label: "appledouble")
        let fixture = try TarixFixture.make(&random, count: 1, longNames: false)
        defer { fixture.dir.remove() }
        let source = fixture.dir.appending("mac.tgz")
        _ = try fixture.python(
            ZealScripts.hostile,
            [
                source, "dir:Sample.docset/", "file:Sample.docset/a.html", "file:Sample.docset/._a.html",
                "file:__MACOSX/Sample.docset/._a.html",
            ])
        let store = try fixture.build(source, label: "mac")
        #expect(store.summary.documents == 1)
        _ = try fixture.verify(store.archive, store.index)
        let reader = try TarixArchive(archivePath: store.archive, indexPath: store.index)
        #expect(try reader.read("a.html") == Array("payload".utf8))
        #expect(!reader.exists("._a.html"))
    }

    @Test func notGzipOrNotTar() throws {
        var random = TestRandom(label: "not-gzip")
        let fixture = try TarixFixture.make(&random, count: 1, longNames: false)
        defer { fixture.dir.remove() }
        let text = fixture.dir.write("text.tgz", "hello, not gzip")
        #expect(throws: TarixError.self) { _ = try fixture.build(text, label: "text") }
        let notTar = fixture.dir.appending("not-tar.tgz")
        try fixture.run("/bin/sh", ["-c", "head -c 5000 /dev/urandom | gzip > \(notTar)"])
        #expect(throws: TarixError.self) { _ = try fixture.build(notTar, label: "not-tar") }
    }
}
