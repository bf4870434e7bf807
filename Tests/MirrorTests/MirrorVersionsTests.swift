import DocSync
import DocSyncMirror
import Foundation
import TestSupport
import Testing

/// Versions side by side through the fleet mirror: the publishing host keeps `versions = ["3.11.4", "latest"]` of a
/// Kapeli feed docset and publishes each kept version (its own Dash feed, catalogue entry, archive and checksum); a
/// fleet member with the same selection over the mirror's `catalogue.json` installs both from the mirror, each as
/// its own docset, never asking the origin.
@Suite(
    .enabled(if: Nginx.isInstalled, "nginx is not installed (scripts/bootstrap installs it)"),
    .serialized, .timeLimit(.minutes(10)), .blockingWaits)
struct MirrorVersionsTests {
    static let selection = "[[docset]]\nname = \"Python_3\"\nsource = \"kapeli\"\nversions = [\"3.11.4\", \"latest\"]\n"

    @Test func eachKeptVersionIsPublishedAndAFleetMemberInstallsThemFromTheMirror() throws {
        let fleet = try MirrorFleet()
        let www = fleet.originWWW
        let latest = try DocsetFixture.make(version: "3.12.1", documents: 3)
        let old = try DocsetFixture.make(version: "3.11.4", documents: 2)
        try FileManager.default.createDirectory(
            atPath: "\(www)/feeds/zzz/versions/Python_3/3.11.4", withIntermediateDirectories: true)
        try latest.writeArchive(to: "\(www)/feeds/Python_3.tgz", prefix: "Python_3.docset/")
        try old.writeArchive(to: "\(www)/feeds/zzz/versions/Python_3/3.11.4/Python_3.tgz", prefix: "Python_3.docset/")
        try ServedFile.write(
            "<entry><version>3.12.1</version><url>\(fleet.origin.url("feeds/Python_3.tgz"))</url><other-versions>"
                + "<version><name>3.12.1</name></version><version><name>.11.4</name></version></other-versions>"
                + "</entry>\n",
            to: "\(www)/feeds/Python_3.xml")
        let catalogues = """
            [catalog]
            mirrors = ["\(fleet.origin.url("feeds"))"]
            [catalog.kapeli]
            base_url = "\(fleet.origin.url("feeds"))"
            [catalog.contrib]
            url = ""
            [catalog.cheatsheets]
            url = ""

            """
        try """
        root = "root"
        staging = "staging"
        state = "state"

        [mirror]
        dir = "\(fleet.mirrorDirectory)"
        base_url = "\(fleet.cache.url(""))"

        \(catalogues)
        [catalog.zeal]
        url = ""

        \(Self.selection)
        """.write(toFile: fleet.publisherConfig, atomically: true, encoding: .utf8)

        let published = try fleet.publisher(["sync"])
        #expect(published.status == 0, "\(published.standardError)\(published.standardOutput)")
        let kept = ["Python_3", "Python_3@3.11.4"]
        for name in kept {
            #expect(FileManager.default.fileExists(atPath: "\(fleet.mirrorDirectory)/feeds/\(name).xml"), "\(name)")
        }
        let catalogue = try JSONSerialization.jsonObject(
            with: Data(contentsOf: URL(fileURLWithPath: "\(fleet.mirrorDirectory)/\(MirrorDocuments.cataloguePath)")))
        let entries = (catalogue as? [[String: Any]] ?? []).map {
            "\($0["name"] as? String ?? "") \(($0["versions"] as? [String])?.first ?? "")"
        }
        #expect(entries == ["Python_3 3.12.1", "Python_3@3.11.4 3.11.4"], "\(entries)")
        let manifest = try LockFile.load("\(fleet.mirrorDirectory)/manifest.lock")
        #expect(manifest.docsets.map(\.name).sorted() == kept)
        let publisherTrees = try kept.map { try #require(Self.tree(fleet.publisherRoot, $0)) }
        let originBefore = fleet.origin.accessLog().count

        // A fleet member with the same selection, whose only catalogue is the mirror's.
        let folder = fleet.dir.appending("clients/versions")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let client = "\(folder)/docsync.toml"
        try """
        root = "root"
        staging = "staging"
        state = "state"

        \(catalogues)
        [catalog.zeal]
        url = "\(fleet.cache.url(MirrorDocuments.cataloguePath))"

        \(Self.selection.replacingOccurrences(of: "source = \"kapeli\"\n", with: ""))
        """.write(toFile: client, atomically: true, encoding: .utf8)
        let synced = try Tool.run(Tool.docsyncBinary, ["sync", "--json", "--config", client])
        #expect(synced.status == 0, "\(synced.standardError)\(synced.standardOutput)")
        let root = MirrorFleet.root(ofClient: client)
        #expect(try kept.map { try #require(Self.tree(root, $0)) } == publisherTrees)
        let fromClient = Array(fleet.origin.accessLog().dropFirst(originBefore))
        #expect(fromClient.isEmpty, "the client asked the origin: \(fromClient)")
        #expect(MirrorFleet.archiveRequests(fleet.mirror).count == 2, "each version once, from the mirror")
        var names: Set<String> = []
        for (name, title) in zip(kept, ["Python_3 3.12.1", "Python_3 3.11.4"]) {
            let data = try Data(contentsOf: URL(fileURLWithPath: "\(root)/\(name).docset/meta.json"))
            let meta = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            #expect(meta["name"] as? String == name && meta["title"] as? String == title, "\(meta)")
            names.insert(meta["name"] as? String ?? "")
        }
        #expect(names.count == 2, "Zeal keys docsets by name: each version needs its own")

        // Nothing new on the mirror: the member downloads nothing.
        let again = try Tool.run(Tool.docsyncBinary, ["sync", "--json", "--config", client])
        #expect(again.status == 0, "\(again.standardError)")
        #expect(MirrorFleet.archiveRequests(fleet.mirror).count == 2)
    }

    /// The installed tree of `name` under `root` (meta.json and icons excluded), nil when not installed.
    static func tree(_ root: String, _ name: String) -> [String: String]? {
        let path = "\(root)/\(name).docset"
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        return try? TreeSnapshot.of(URL(fileURLWithPath: path).resolvingSymlinksInPath().path)
    }
}
