import DocSync
import Foundation
import TestSupport
import Testing

/// `docsync sync --relayout` (`SyncEngine.relayout()`): a root switched to the tarix layout and back, through the
/// normal atomic path and without the original archive (the extracted tree is packed again; the tarix store is
/// itself an archive of the docset).
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct TarixRelayoutTests {
    @Test func aRootSwitchedToTarixAndBackKeepsEveryDocument() async throws {
        var random = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        let seed = "seed \(random.seed)"
        let fixture = try TarixInstallTests.fixture(&random, count: 120)
        defer { fixture.dir.remove() }
        let source = try fixture.archive(format: "gnu")
        var config = DocSyncConfiguration(
            root: fixture.dir.appending("root"), staging: fixture.dir.appending("staging"),
            state: fixture.dir.appending("state"))
        let installed = try await SyncEngine(configuration: config).install(
            archive: source, name: "Sample", version: "1.0")
        #expect(installed.layout == .extracted)
        let digest = try TarixInstallTests.meta(installed.path)["archive_sha256"] as? String
        // Unchanged configuration: nothing to convert.
        #expect(try await SyncEngine(configuration: config).relayout().isEmpty)

        config.install.layout = .tarix
        let toTarix = try await SyncEngine(configuration: config).relayout()
        #expect(toTarix.map(\.name) == ["Sample"] && toTarix.allSatisfy { $0.failure == nil }, "\(toTarix), \(seed)")
        let tarix = try #require(try SyncEngine(configuration: config).installedDocsets().first)
        #expect(tarix.layout == .tarix && tarix.version == "1.0" && tarix.path != installed.path)
        #expect(!FileManager.default.fileExists(atPath: "\(tarix.path)/Contents/Resources/Documents"))
        let store = "\(tarix.path)/Contents/Resources"
        let extracted = try fixture.extract(source, label: "gnu")
        let zeal = try fixture.python(ZealScripts.reader, ["\(store)/tarix.tgz", "\(store)/tarixIndex.db", extracted])
        #expect(zeal.trimmingCharacters(in: .whitespacesAndNewlines) == "OK \(fixture.files.count)", "\(seed)")
        #expect(try TarixInstallTests.meta(tarix.path)["archive_sha256"] as? String == digest)

        config.install.layout = .extracted
        let back = try await SyncEngine(configuration: config).relayout()
        #expect(back.map(\.name) == ["Sample"] && back.allSatisfy { $0.failure == nil }, "\(back), \(seed)")
        let again = try #require(try SyncEngine(configuration: config).installedDocsets().first)
        #expect(again.layout == .extracted && again.version == "1.0")
        #expect(try TarixInstallTests.meta(again.path)["archive_sha256"] as? String == digest)
        for (path, bytes) in fixture.files {
            let data = FileManager.default.contents(atPath: "\(again.path)/\(path)")
            #expect(data.map(Array.init) == bytes, "\(path), \(seed)")
            if path.hasPrefix(TarixFixture.documents + "/") {
                let page = String(path.dropFirst(TarixFixture.documents.count + 1))
                #expect(try await tarix.contents(of: page) == bytes, "\(page) from the tarix version, \(seed)")
            }
        }
    }
}
