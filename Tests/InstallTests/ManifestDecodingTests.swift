@testable import DocSyncInstall
import Testing

/// The recorded manifest read back as bytes (`TreeManifest.init(decoding:)`, run for every unchanged docset on every
/// sync): awkward names round-trip, format 2's later lines and removals apply, and anything else is not a manifest.
@Suite(.timeLimit(.minutes(10))) struct ManifestDecodingTests {
    @Test func awkwardNamesRoundTrip() {
        var manifest = TreeManifest()
        let names = [
            "a b", "100%", "tab\there", "new\nline", "é", "e\u{301}", " \u{301}lead", "\r\n", "x\u{7F}", "日本語/ファイル",
        ]
        for (index, name) in names.enumerated() {
            manifest.entries["Contents/\(name)"] = .file(size: Int64(index), sha256: String(repeating: "ab", count: 32))
            manifest.entries["Dir \(name)"] = .directory
            manifest.entries["link \(index)"] = .symlink(target: name)
        }
        manifest.entries["empty target"] = .symlink(target: "")
        #expect(TreeManifest(decoding: manifest.encoded()) == manifest)
    }

    @Test func formatTwoAppliesLinesInOrder() {
        let text = "docsync-manifest 2\nD a\nF 3 abc a/b\nF 4 def a/b\nL c%20d e\nX c%20d\nF 1 00 gone\nX gone\n"
        var expected = TreeManifest()
        expected.entries["a"] = .directory
        expected.entries["a/b"] = .file(size: 4, sha256: "def")
        #expect(TreeManifest(decoding: Array(text.utf8)) == expected)
    }

    @Test func otherBytesAreNotAManifest() {
        for text in [
            "", "docsync-manifest 3\n", "docsync-manifest 1\nX a\n", "docsync-manifest 1\nF x abc a\n",
            "docsync-manifest 1\nFF 1 abc a\n", "docsync-manifest 1\nD a b\n", "docsync-manifest 1\nD %zz\n",
            "docsync-manifest 1\nQ a\n",
        ] {
            #expect(TreeManifest(decoding: Array(text.utf8)) == nil, "\(text.debugDescription)")
        }
        #expect(TreeManifest(decoding: Array("docsync-manifest 1\n".utf8)) == TreeManifest())
    }

    /// With `only` (the essentials check), the entries of those paths alone, as a whole decode has them (format 2's
    /// later lines and removals applied); every other line is still checked for its kind and field count.
    @Test func onlyThePathsAskedAreDecoded() throws {
        let text =
            "docsync-manifest 2\nD Contents\nF 3 abc meta.json\nF 9 fff Contents/Info.plist\nL x y\n"
            + "F 4 def meta.json\nX Contents/Info.plist\nF 1 00 other\n"
        let whole = try #require(TreeManifest(decoding: Array(text.utf8)))
        let paths = ["meta.json", "Contents/Info.plist", "Contents"]
        var expected = TreeManifest()
        for path in paths { expected.entries[path] = whole.entries[path] }
        #expect(TreeManifest(decoding: Array(text.utf8), only: paths) == expected)
        #expect(expected.entries.count == 2 && expected.entries["meta.json"] == .file(size: 4, sha256: "def"))
        for bad in [
            "docsync-manifest 1\nQ a\n", "docsync-manifest 1\nD a b\n", "docsync-manifest 1\nX a\n",
            "docsync-manifest 1\nF 1 abc\n", "docsync-manifest 3\n",
        ] {
            #expect(TreeManifest(decoding: Array(bad.utf8), only: paths) == nil, "\(bad.debugDescription)")
        }
    }
}
