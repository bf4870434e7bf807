import DocSync
import Foundation
import TestSupport
import Testing

/// Symlinks planted in docsync's own folders under root and state are refused, never followed; the only
/// link followed is docsync's own `NAME.docset` into `.docsync/versions/`.
@Suite(.timeLimit(.minutes(10))) struct PlantedSymlinkSyncTests {
    /// A harness with one Atom feed offering docset A, and a victim folder holding one precious file.
    private func harness() throws -> (SyncHarness, victim: String) {
        let h = try SyncHarness.inMemory()
        try h.publishArchive(try DocsetFixture.make(version: "1.0"), as: "A.tgz", folder: "A")
        try h.writeAtomFeed("f.atom", [.init(identifier: "org.a", title: "A", version: "1.0", archive: "A.tgz")])
        try h.writeConfig(feeds: ["f.atom"])
        let victim = h.dir.appending("victim")
        try FileManager.default.createDirectory(atPath: "\(victim)/trash", withIntermediateDirectories: true)
        try Data("precious\n".utf8).write(to: URL(fileURLWithPath: "\(victim)/trash/precious.txt"))
        try Data("precious\n".utf8).write(to: URL(fileURLWithPath: "\(victim)/file.txt"))
        return (h, victim)
    }

    private func victimIsIntact(_ victim: String) throws -> Bool {
        try String(contentsOfFile: "\(victim)/trash/precious.txt", encoding: .utf8) == "precious\n"
            && String(contentsOfFile: "\(victim)/file.txt", encoding: .utf8) == "precious\n"
            && FileManager.default.contentsOfDirectory(atPath: victim).sorted() == ["file.txt", "trash"]
    }

    static func sync(_ h: SyncHarness, _ options: SyncOptions = SyncOptions()) async throws -> [SyncEvent] {
        var events: [SyncEvent] = []
        for try await event in try h.engine().sync(options) { events.append(event) }
        return events
    }

    @Test(arguments: [".docsync", ".docsync/versions", ".docsync/staging", ".docsync/trash", ".docsync/retired"])
    func aLinkForAStateFolderIsRefusedAndItsTargetUntouched(_ folder: String) async throws {
        let (h, victim) = try harness()
        try FileManager.default.createDirectory(atPath: "\(h.root)/.docsync", withIntermediateDirectories: true)
        if folder == ".docsync" { try FileManager.default.removeItem(atPath: "\(h.root)/.docsync") }
        try FileManager.default.createSymbolicLink(atPath: "\(h.root)/\(folder)", withDestinationPath: victim)
        let events = try await Self.sync(h)
        let failure = events.compactMap { if case .failed(_, let failure) = $0 { failure.message } else { nil } }.first
        #expect(failure?.contains("\(h.root)/\(folder) is a symlink") == true, "\(events)")
        #expect(try victimIsIntact(victim))
    }

    @Test func aFeedsFolderLinkGetsNoCacheFiles() async throws {
        let (h, victim) = try harness()
        try FileManager.default.createDirectory(atPath: h.state, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: "\(h.state)/feeds", withDestinationPath: victim)
        _ = try await Self.sync(h)
        #expect(try victimIsIntact(victim))
    }

    @Test func aSyncLockLinkIsRefusedAndItsTargetNotTruncated() async throws {
        let (h, victim) = try harness()
        try FileManager.default.createDirectory(atPath: h.state, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: "\(h.state)/sync.lock", withDestinationPath: "\(victim)/file.txt")
        await #expect { _ = try await Self.sync(h) } throws: { ($0 as? SyncError)?.exclusion != nil }
        #expect(try victimIsIntact(victim))
    }

    @Test func aLastSyncLinkIsReplacedNotWrittenThrough() async throws {
        let (h, victim) = try harness()
        try FileManager.default.createDirectory(atPath: h.state, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: "\(h.state)/last-sync.json", withDestinationPath: "\(victim)/file.txt")
        _ = try await Self.sync(h)
        #expect(try victimIsIntact(victim))
        let attributes = try FileManager.default.attributesOfItem(atPath: "\(h.state)/last-sync.json")
        #expect(attributes[.type] as? FileAttributeType == .typeRegular)
    }

    @Test func aStagingCompleteLinkIsRefused() async throws {
        let (h, victim) = try harness()
        let staging = h.dir.appending("staging")
        try FileManager.default.createDirectory(atPath: staging, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: "\(staging)/complete", withDestinationPath: victim)
        var configuration = try h.configuration()
        configuration.install.streaming = false
        var events: [SyncEvent] = []
        let engine = SyncEngine(configuration: configuration, transport: h.origin.transport)
        for try await event in engine.sync() { events.append(event) }
        #expect(events.contains { if case .failed = $0 { true } else { false } }, "\(events)")
        #expect(try victimIsIntact(victim))
    }

    /// `A.docset -> .docsync/versions/..` (and a link elsewhere) is not docsync's: an error, reported as failed,
    /// with nothing installed — never "failed" after the new version went in.
    @Test(arguments: [".docsync/versions/..", "../victim"])
    func aForeignDocsetLinkIsAnErrorAndTheResultConsistent(_ target: String) async throws {
        let (h, victim) = try harness()
        try FileManager.default.createDirectory(
            atPath: "\(h.root)/.docsync/versions", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: "\(h.root)/A.docset", withDestinationPath: target)
        let events = try await Self.sync(h)
        let failed = events.compactMap {
            if case .failed(let name, let failure) = $0 { (name, failure.message) } else { nil }
        }
        #expect(failed.map(\.0) == ["A"], "\(events)")
        #expect(failed.first?.1.contains("did not create") == true, "\(failed)")
        #expect(!events.contains { if case .installed = $0 { true } else { false } })
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: "\(h.root)/A.docset") == target)
        let versions = try FileManager.default.contentsOfDirectory(atPath: "\(h.root)/.docsync/versions")
        #expect(versions.isEmpty, "nothing was published: \(versions)")
        #expect(try victimIsIntact(victim))
    }
}

/// Prune never removes what docsync did not install, even when its meta.json names a configured feed
/// (Zeal writes `feed_url` too).
@Suite(.timeLimit(.minutes(10))) struct PruneForeignTests {
    @Test func pruneLeavesAFolderDocsyncDidNotInstall() async throws {
        let h = try SyncHarness.inMemory()
        try h.publishArchive(try DocsetFixture.make(version: "1.0"), as: "A.tgz", folder: "A")
        try h.writeAtomFeed("f.atom", [.init(identifier: "org.a", title: "A", version: "1.0", archive: "A.tgz")])
        try h.writeConfig(feeds: ["f.atom"], extra: "prune = true")
        let zeal = "\(h.root)/Zeal.docset"
        try DocsetFixture.make(version: "z").writeTree(to: zeal)
        let meta = #"{"name": "Zeal", "title": "Zeal", "version": "z", "feed_url": "\#(h.url("f.atom"))"}"#
        try meta.write(toFile: "\(zeal)/meta.json", atomically: true, encoding: .utf8)
        let events = try await PlantedSymlinkSyncTests.sync(h)
        #expect(!events.contains { if case .removed = $0 { true } else { false } }, "\(events)")
        #expect(FileManager.default.fileExists(atPath: "\(zeal)/Contents/Info.plist"))
    }
}
