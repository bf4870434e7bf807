import DocSync
import DocSyncMirror
import Foundation
import TestSupport
import Testing

/// A fleet host that knows only the mirror's `catalogue.json` and a docset name installs from the mirror: the
/// catalogue entry states its `sha256`, so its own `urls` are authoritative (nothing derived from `[catalog] mirrors`
/// is tried first), and the checksum is enforced.
@Suite(
    .enabled(if: Nginx.isInstalled, "nginx is not installed (scripts/bootstrap installs it)"),
    .serialized, .timeLimit(.minutes(10)), .blockingWaits)
struct MirrorCatalogueConsumptionTests {
    @Test func aClientSelectingByNameFromTheMirrorsCatalogueInstallsFromTheMirror() throws {
        var generator = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        let seed = generator.seed
        print("MirrorCatalogueConsumptionTests seed \(seed) (DOCSYNC_TEST_SEED=\(seed) replays it)")
        let fleet = try MirrorFleet()
        let digest = try fleet.originPublishes(version: "1.0", megabytes: 2, seed: generator.next())
        let published = try fleet.publisher(["sync"])
        #expect(published.status == 0, "\(published.standardError)")
        let publisherTree = try #require(MirrorFleet.tree(fleet.publisherRoot))
        let originBefore = fleet.origin.accessLog().count

        // `[catalog] mirrors` names the origin: were derived URLs tried first, its access log would show it.
        let client = try Self.client(fleet, "by-name", catalogue: fleet.cache.url(MirrorDocuments.cataloguePath))
        let synced = try Tool.run(Tool.docsyncBinary, ["sync", "--config", client])
        #expect(synced.status == 0, "\(synced.standardError)")
        #expect(MirrorFleet.tree(MirrorFleet.root(ofClient: client)) == publisherTree)
        let fromClient = Array(fleet.origin.accessLog().dropFirst(originBefore))
        #expect(fromClient.isEmpty, "the client asked the origin: \(fromClient)")
        #expect(MirrorFleet.archiveRequests(fleet.mirror).count == 1, "through the caching tier, from the mirror")

        // The published checksum is enforced: a catalogue whose sha256 does not match installs nothing.
        let text = try String(contentsOfFile: "\(fleet.mirrorDirectory)/\(MirrorDocuments.cataloguePath)", encoding: .utf8)
        let wrong = String(repeating: "0", count: 64)
        let forged = fleet.dir.appending("forged-catalogue.json")
        try text.replacingOccurrences(of: "\"sha256\" : \"\(digest)\"", with: "\"sha256\" : \"\(wrong)\"")
            .write(toFile: forged, atomically: true, encoding: .utf8)
        #expect(try String(contentsOfFile: forged, encoding: .utf8).contains(wrong), "the forgery took")
        let strict = try Self.client(fleet, "forged", catalogue: forged)
        let refused = try Tool.run(Tool.docsyncBinary, ["sync", "--config", strict])
        #expect(refused.status == 3, "\(refused.standardError)")
        #expect(MirrorFleet.tree(MirrorFleet.root(ofClient: strict)) == nil)
        let said = (refused.standardOutput + refused.standardError).lowercased()
        #expect(said.contains("sha-256") || said.contains("sha256") || said.contains("checksum"), "\(said)")
    }

    /// A client root whose only source is the mirror's catalogue (the other catalogues off), selecting Go by name.
    static func client(_ fleet: MirrorFleet, _ name: String, catalogue: String) throws -> String {
        let folder = fleet.dir.appending("clients/\(name)")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return try CatalogueClient.write(
            to: "\(folder)/docsync.toml", catalogue: catalogue, docsets: ["go"], mirrors: [fleet.origin.url("")])
    }
}
