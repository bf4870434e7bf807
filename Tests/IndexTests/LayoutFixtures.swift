import Foundation

/// Docsets in every layout real docsets use, generated in the test: Apple's `docsetutil` layout like
/// CUPS's XAR docset (pages in `Documentation/`, Core Data paths relative to `Contents/Resources`, entries in the
/// `-wal`), the same beside a `Documents/` folder, `Documentation/`-relative paths, and Dash's `Documents/` with
/// `dash_ref` anchors, `<dash_entry_…>` markup and percent-encoded names.
enum LayoutFixtures {
    struct Fixture {
        var name: String
        var folder: String
        var entryCount: Int
        /// The pages expected under `Contents/Resources/` for the entries, for checking URLs.
        var files: [String]
    }

    static func write(_ files: [String: String], in folder: String) throws {
        for (path, text) in files {
            let full = "\(folder)/\(path)"
            try FileManager.default.createDirectory(
                atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: full))
        }
    }

    /// CUPS's layout: no `Documents/`, pages in `Documentation/help/`, no `index.html` where Zeal looks.
    static func cups(in parent: String) throws -> Fixture {
        let entries: [IndexFixture.Entry] = [
            .init(
                name: "cupsGetDests", type: "func", path: "Documentation/help/api-cups.html", fragment: "cupsGetDests"),
            .init(
                name: "cupsPrintFile", type: "func", path: "Documentation/help/api-cups.html", fragment: "cupsPrintFile"
            ),
            .init(name: "cups_dest_t", type: "tdef", path: "Documentation/help/api-cups.html", fragment: "cups_dest_t"),
            .init(name: "Filter and Backend Programming", type: "doc", path: "Documentation/help/api-filter.html"),
            .init(name: "ppdOpenFile", type: "func", path: "Documentation/help/api-ppd.html", fragment: "ppdOpenFile"),
        ]
        let folder = try IndexFixture.coreData("CUPS", in: parent, entries, wal: true)
        try FileManager.default.removeItem(atPath: "\(folder)/Contents/Resources/Documents")
        let pages = ["help/api-cups.html", "help/api-filter.html", "help/api-ppd.html"]
        try write(
            Dictionary(
                uniqueKeysWithValues: pages.map { ("Contents/Resources/Documentation/\($0)", "<html>\($0)</html>") }),
            in: folder)
        return Fixture(
            name: "CUPS", folder: folder, entryCount: entries.count, files: pages.map { "Documentation/\($0)" })
    }

    /// Apple's layout beside a `Documents/` folder (which holds `index.html`).
    static func appleBeside(in parent: String) throws -> Fixture {
        let entries: [IndexFixture.Entry] = [
            .init(name: "Overview", type: "doc", path: "Documentation/overview.html"),
            .init(
                name: "Widget", type: "cl", path: "Documentation/Widget%20Class.html",
                fragment: "//apple_ref/occ/cl/Widget"),
        ]
        let folder = try IndexFixture.coreData("Beside", in: parent, entries)
        try write(
            [
                "Contents/Resources/Documentation/overview.html": "<html>overview</html>",
                "Contents/Resources/Documentation/Widget Class.html": "<html>Widget</html>",
            ], in: folder)
        return Fixture(
            name: "Beside", folder: folder, entryCount: entries.count,
            files: ["Documentation/overview.html", "Documentation/Widget Class.html"])
    }

    /// Apple's layout with paths relative to `Documentation/` and no `Documents/`.
    static func documentationRelative(in parent: String) throws -> Fixture {
        let entries: [IndexFixture.Entry] = [
            .init(name: "start", type: "func", path: "api/start.html", fragment: "start"),
            .init(name: "stop", type: "func", path: "api/stop.html"),
        ]
        let folder = try IndexFixture.coreData("Relative", in: parent, entries)
        try FileManager.default.removeItem(atPath: "\(folder)/Contents/Resources/Documents")
        try write(
            [
                "Contents/Resources/Documentation/index.html": "<html>home</html>",
                "Contents/Resources/Documentation/api/start.html": "<html>start</html>",
                "Contents/Resources/Documentation/api/stop.html": "<html>stop</html>",
            ], in: folder)
        return Fixture(
            name: "Relative", folder: folder, entryCount: entries.count,
            files: ["Documentation/api/start.html", "Documentation/api/stop.html"])
    }

    /// Dash's layout with `dash_ref` anchors, markup and percent-encoded names.
    static func dashRefs(in parent: String) throws -> Fixture {
        let entries: [IndexFixture.Entry] = [
            .init(
                name: "vector", type: "cl",
                path: "<dash_entry_name=vector><dash_entry_originalName=std%3A%3Avector>cpp/vector.html"
                    + "#//dash_ref/Class/std%3A%3Avector/0"),
            .init(name: "push_back", type: "Method", path: "cpp/vector.html#//dash_ref/Method/push_back/0"),
            .init(name: "a b", type: "Guide", path: "guides/a%20b.html"),
            .init(name: "été", type: "Guide", path: "guides/%C3%A9t%C3%A9.html#top"),
            .init(name: "100%", type: "Guide", path: "guides/100%.html"),
        ]
        let folder = try IndexFixture.dash("DashRefs", in: parent, entries)
        try write(
            [
                "Contents/Resources/Documents/cpp/vector.html":
                    "<a name=\"//dash_ref/Class/std%3A%3Avector/0\" class=\"dashAnchor\"></a>",
                "Contents/Resources/Documents/guides/a b.html": "<html>a b</html>",
                "Contents/Resources/Documents/guides/été.html": "<html>été</html>",
                "Contents/Resources/Documents/guides/100%.html": "<html>100%</html>",
            ], in: folder)
        return Fixture(
            name: "DashRefs", folder: folder, entryCount: entries.count,
            files: [
                "Documents/cpp/vector.html", "Documents/guides/a b.html", "Documents/guides/été.html",
                "Documents/guides/100%.html",
            ])
    }
}
