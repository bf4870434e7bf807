import DocSync
import DocSyncConfigFile
import Foundation
import TestSupport
import Testing

/// The fleet mirror publishes `<archive>.tarix` (a gzip'd tar holding `tarixIndex.db`) beside each archive that is
/// already flushed at every record — the bytes it serves unchanged — and marks it `"tarix": true` in its catalogue;
/// an archive that is not flushed gets no index (re-encoding would change the bytes under the publisher's digest).
/// A client with the tarix layout syncing the mirror's feed uses the mirror's index. In process, `MemoryOrigin`.
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct TarixMirrorTests {
    static func sync(_ config: String, _ origin: MemoryOrigin) async throws -> (SyncSummary?, String) {
        let configuration = try DocSyncConfigurationLoader().load(file: config)
        let run = try await SyncRun.of(SyncEngine(configuration: configuration, transport: origin.transport))
        return (run.summary, run.lines)
    }

    @Test func theMirrorPublishesAnIndexBesideAFlushedArchiveOnly() async throws {
        var random = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        let seed = random.seed
        let fixture = try TarixInstallTests.fixture(&random, count: 50)
        defer { fixture.dir.remove() }
        let www = fixture.dir.appending("www")
        try FileManager.default.createDirectory(atPath: "\(www)/mirror", withIntermediateDirectories: true)
        let plain = try fixture.archive(format: "gnu")
        _ = try fixture.python(ZealScripts.writer, [plain, "\(www)/Flushed.tgz", fixture.dir.appending("zeal.db")])
        // The same tree as a second docset, archived plainly (GNU tar's gzip: no flush points).
        try FileManager.default.copyItem(atPath: plain, toPath: "\(www)/Plain.tgz")
        let origin = MemoryOrigin(root: www)
        for name in ["Flushed", "Plain"] {
            try ServedFile.write(
                "<entry><version>1.0</version><url>\(origin.url("\(name).tgz"))</url></entry>\n",
                to: "\(www)/\(name).xml")
        }
        let publisherConfig = fixture.dir.appending("publisher.toml")
        try """
        root = "publisher/root"
        staging = "publisher/staging"
        state = "publisher/state"

        [mirror]
        dir = "www/mirror"
        base_url = "\(origin.url("mirror"))"

        [[feed]]
        url = "\(origin.url("Flushed.xml"))"

        [[feed]]
        url = "\(origin.url("Plain.xml"))"

        """.write(toFile: publisherConfig, atomically: true, encoding: .utf8)
        let (published, publishLines) = try await Self.sync(publisherConfig, origin)
        #expect(published?.isSuccess == true && published?.installed == 2, "seed \(seed)\n\(publishLines)")

        let catalogueData = try Data(contentsOf: URL(fileURLWithPath: "\(www)/mirror/catalogue.json"))
        let catalogue = try #require(try JSONSerialization.jsonObject(with: catalogueData) as? [[String: Any]])
        let entries = Dictionary(uniqueKeysWithValues: catalogue.map { ($0["name"] as? String ?? "", $0) })
        #expect(entries["Flushed"]?["tarix"] as? Bool == true, "\(catalogue)")
        #expect(entries["Plain"]?["tarix"] == nil, "\(catalogue)")
        let flushedDigest = try #require(entries["Flushed"]?["sha256"] as? String)
        let plainDigest = try #require(entries["Plain"]?["sha256"] as? String)
        let folder = "\(www)/mirror/archives/\(flushedDigest)"
        #expect(FileManager.default.contentsEqual(atPath: "\(folder)/Flushed.tgz", andPath: "\(www)/Flushed.tgz"))
        #expect(!FileManager.default.fileExists(atPath: "\(www)/mirror/archives/\(plainDigest)/Plain.tgz.tarix"))
        let plainFolder = "\(www)/mirror/archives/\(plainDigest)"
        #expect(FileManager.default.contentsEqual(atPath: "\(plainFolder)/Plain.tgz", andPath: plain))
        #expect(FileManager.default.fileExists(atPath: "\(plainFolder)/.Plain.tgz.notarix"), "checked once, marked")

        // The package holds `tarixIndex.db`, which Zeal's reader takes with the archive as the mirror serves it.
        let unpacked = fixture.dir.appending("unpacked")
        try FileManager.default.createDirectory(atPath: unpacked, withIntermediateDirectories: true)
        try fixture.run("/usr/bin/tar", ["-xzf", "\(folder)/Flushed.tgz.tarix", "-C", unpacked])
        let extracted = try fixture.extract(plain, label: "plain")
        let zeal = try fixture.python(
            ZealScripts.reader, ["\(folder)/Flushed.tgz", "\(unpacked)/tarixIndex.db", extracted])
        #expect(zeal.trimmingCharacters(in: .whitespacesAndNewlines) == "OK \(fixture.files.count)")

        // A client with the tarix layout, syncing the mirror's Dash feed, uses the mirror's index.
        let clientConfig = fixture.dir.appending("client.toml")
        try """
        root = "client/root"
        staging = "client/staging"
        state = "client/state"

        [install]
        layout = "tarix"

        [[feed]]
        url = "\(origin.url("mirror/feeds/Flushed.xml"))"

        """.write(toFile: clientConfig, atomically: true, encoding: .utf8)
        let (client, clientLines) = try await Self.sync(clientConfig, origin)
        #expect(client?.isSuccess == true && client?.installed == 1, "\(clientLines)")
        let meta = try TarixInstallTests.meta(fixture.dir.appending("client/root/Flushed.docset"))
        #expect(meta["tarix_index"] as? String == "publisher", "\(meta)")
        #expect(meta["tarix_mode"] as? String == "indexed")

        // A client choosing both by name from the mirror's catalogue: the entry marked `"tarix": true` has its index
        // fetched and used; the one without the flag is not asked for one (docsync builds its own).
        let catalogueConfig = fixture.dir.appending("catalogue-client.toml")
        try CatalogueClient.write(
            to: catalogueConfig, catalogue: origin.url("mirror/catalogue.json"), docsets: ["Flushed", "Plain"],
            folder: "catalogue-client", mirrors: [], extra: "[install]\nlayout = \"tarix\"")
        let before = origin.accessLog().count
        let (byName, byNameLines) = try await Self.sync(catalogueConfig, origin)
        #expect(byName?.isSuccess == true && byName?.installed == 2, "\(byNameLines)")
        let asked = origin.accessLog().dropFirst(before).map(\.path).filter { $0.hasSuffix(".tarix") }
        #expect(asked.count == 1 && asked.allSatisfy { $0.hasSuffix("Flushed.tgz.tarix") }, "\(asked)")
        let flushedMeta = try TarixInstallTests.meta(fixture.dir.appending("catalogue-client/root/Flushed.docset"))
        #expect(flushedMeta["tarix_index"] as? String == "publisher", "\(flushedMeta)")
        let plainMeta = try TarixInstallTests.meta(fixture.dir.appending("catalogue-client/root/Plain.docset"))
        #expect(plainMeta["tarix_index"] as? String == "built" && plainMeta["tarix_mode"] as? String == "reencoded")
    }
}
