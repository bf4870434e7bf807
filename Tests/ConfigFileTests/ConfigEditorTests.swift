import DocSync
import DocSyncConfigFile
import Testing

/// `docsync add` / `drop` edit a commented config as text: golden before/after files.
@Suite(.timeLimit(.minutes(5))) struct ConfigEditorTests {
    static let commented = """
        # My docsets — keep this comment.
        root = "~/docsets"   # trailing comment

        [network]
        concurrency = 4

        # Swift from its feed
        [[feed]]
        url = "https://kapeli.com/feeds/Swift.xml"

        [[docset]]
        name = "Python_3"   # the one I use
        version = '3.9.6'

        # JavaScript's table follows
        [[docset]]
        name = "JavaScript"

        [install]
        streaming = true

        """

    @Test func addAppendsTablesAndKeepsEverythingElse() {
        let edit = ConfigEditor.adding(
            [.init(name: "Jest", version: "27.0", source: .contrib), .init(name: "python_3"), .init(name: "Go")],
            to: Self.commented)
        #expect(edit.changed == ["Jest", "Go"])
        #expect(edit.untouched == ["python_3"])
        #expect(
            edit.text == Self.commented + """

                [[docset]]
                name = "Jest"
                version = "27.0"
                source = "contrib"

                [[docset]]
                name = "Go"

                """)
    }

    @Test func dropRemovesOnlyTheTableAndItsKeys() {
        let edit = ConfigEditor.dropping(["python_3", "Nope"], from: Self.commented)
        #expect(edit.changed == ["python_3"] && edit.untouched == ["Nope"])
        #expect(
            edit.text == """
                # My docsets — keep this comment.
                root = "~/docsets"   # trailing comment

                [network]
                concurrency = 4

                # Swift from its feed
                [[feed]]
                url = "https://kapeli.com/feeds/Swift.xml"

                # JavaScript's table follows
                [[docset]]
                name = "JavaScript"

                [install]
                streaming = true

                """)
    }

    @Test func dropThenAddRoundTrips() {
        let dropped = ConfigEditor.dropping(["JavaScript"], from: Self.commented).text
        #expect(!dropped.contains("name = \"JavaScript\""))
        #expect(dropped.contains("# JavaScript's table follows"))  // a comment is never removed
        let added = ConfigEditor.adding([.init(name: "JavaScript")], to: dropped).text
        #expect(ConfigEditor.dropping(["JavaScript"], from: added).text == dropped)
    }

    @Test(arguments: [
        ("", "[[docset]]\nname = \"A\"\n"), ("root = \"x\"", "root = \"x\"\n\n[[docset]]\nname = \"A\"\n"),
        ("root = \"x\"\n", "root = \"x\"\n\n[[docset]]\nname = \"A\"\n"),
    ])
    func addToShortFiles(before: String, after: String) {
        #expect(ConfigEditor.adding([.init(name: "A")], to: before).text == after)
    }

    @Test func namesAreQuotedAsTOML() {
        let text = ConfigEditor.adding([.init(name: "We\"ird\\name")], to: "").text
        #expect(text == "[[docset]]\nname = \"We\\\"ird\\\\name\"\n")
        #expect(ConfigEditor.dropping(["We\"ird\\name"], from: text).changed == ["We\"ird\\name"])
    }

    @Test func diffShowsTheEdit() {
        let edit = ConfigEditor.dropping(["JavaScript"], from: Self.commented)
        let diff = LineDiff.unified(Self.commented, edit.text, path: "docsync.toml")
        #expect(
            diff == """
                --- docsync.toml
                +++ docsync.toml
                @@ -14,6 +14,4 @@
                 
                 # JavaScript's table follows
                -[[docset]]
                -name = "JavaScript"
                 
                 [install]

                """)
    }
}
