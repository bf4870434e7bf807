import DocSync
import DocSyncInstall
import DocSyncSupport
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The tarix install of an archive file kept as it is (flushed at every record) in one pass: the store builder's walk
/// hands the records outside `Documents/` to the tree writer. Every entry is still judged by extraction's rules, the
/// store's files reach `Contents/Resources` only when the pass succeeded, and a refused install leaves nothing behind.
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct TarixOnePassTests {
    /// `plain` re-encoded by Zeal's test writer: a full flush before every record.
    static func flushed(_ fixture: TarixFixture, _ plain: String, as name: String) throws -> String {
        let flushed = fixture.dir.appending(name)
        _ = try fixture.python(ZealScripts.writer, [plain, flushed, fixture.dir.appending("\(name).db")])
        return flushed
    }

    static func staging(_ root: String) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: "\(root)/.docsync/staging")) ?? []
    }

    /// A file outside `Documents/` larger than the extraction pass's block (2.5 MiB, random) comes out byte for
    /// byte, is in the manifest (`verify` intact), and the docset is the same as the two-pass install's.
    @Test func filesOutsideTheDocumentsAreExtractedFromTheStoresWalk() async throws {
        var random = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        let seed = "seed \(random.seed)"
        var fixture = try TarixInstallTests.fixture(&random, count: 30)
        defer { fixture.dir.remove() }
        let big = (0..<(5 << 19)).map { _ in UInt8.random(in: 0...255, using: &random) }
        fixture.files["Contents/Resources/big.bin"] = big
        try Data(big).write(to: URL(fileURLWithPath: fixture.root + "/Contents/Resources/big.bin"))
        let flushed = try Self.flushed(fixture, try fixture.archive(format: "pax"), as: "flushed.tgz")
        let root = fixture.dir.appending("root")
        let installer = TarixInstallTests.installer(root)
        let record = try await installer.install(archive: flushed, as: TarixInstallTests.tarixRequest("Sample"))
        #expect(try TarixInstallTests.meta(record.path)["tarix_mode"] as? String == "indexed", "\(seed)")
        #expect(
            TarixInstallTests.files(below: record.path) == [
                "Contents/Info.plist", "Contents/Resources/big.bin", "Contents/Resources/docSet.dsidx",
                "Contents/Resources/tarix.tgz", "Contents/Resources/tarixIndex.db", "meta.json",
            ], "\(seed)")
        let copied = try Data(contentsOf: URL(fileURLWithPath: "\(record.path)/Contents/Resources/big.bin"))
        #expect([UInt8](copied) == big, "\(seed)")
        #expect(
            FileManager.default.contentsEqual(atPath: "\(record.path)/Contents/Resources/tarix.tgz", andPath: flushed))
        #expect(record.fileCount == 5, "\(seed)")
        #expect(try await installer.verify(names: ["Sample"]).map(\.status) == [.intact], "\(seed)")
        #expect(Self.staging(root).isEmpty, "the store's own staging folder is gone")
        let docset = InstalledDocset(record)
        for (path, bytes) in fixture.files where path.hasPrefix(TarixFixture.documents + "/") {
            let page = String(path.dropFirst(TarixFixture.documents.count + 1))
            #expect(try await docset.contents(of: page) == bytes, "\(page), \(seed)")
        }
    }

    /// Extraction's limits apply to every entry of the one pass, the documents' too: a file over `maxFileBytes`
    /// fails the install with the extraction's own rule, naming the entry, and the old version stays.
    @Test func extractionsRulesJudgeEveryEntryOfTheOnePass() async throws {
        var random = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        let fixture = try TarixInstallTests.fixture(&random, count: 20)
        defer { fixture.dir.remove() }
        let flushed = try Self.flushed(fixture, try fixture.archive(format: "gnu"), as: "flushed.tgz")
        let root = fixture.dir.appending("root")
        let old = try await TarixInstallTests.installer(root).install(
            archive: flushed, as: TarixInstallTests.tarixRequest("Sample"))
        var limits = InstallLimits()
        limits.maxFileBytes = 1_000  // most of the fixture's pages (in Documents/) are larger
        let strict = Installer(root: root, configuration: InstallConfiguration(limits: limits))
        do {
            _ = try await strict.install(archive: flushed, as: TarixInstallTests.tarixRequest("Sample"))
            Issue.record("installed with a file over the limit")
        } catch {
            guard case .rejected(let entry, .fileTooLarge(let limit)) = error else {
                Issue.record("unexpected error: \(error)")
                return
            }
            #expect(limit == 1_000 && entry.hasPrefix("Sample.docset/"), "\(entry)")
        }
        #expect(try strict.installedDocsets().first?.path == old.path)
        #expect(Self.staging(root).isEmpty)
    }

    /// Hostile entries outside `Documents/` in a flushed archive: a traversal is refused by extraction's rule before
    /// anything is written for it; a link (which extraction keeps, a store cannot hold) fails the install too. The
    /// old version stays, nothing lands outside the root, no staging folder is left.
    @Test(arguments: [
        ("traversal", ["file:Sample.docset/../evil.html"]),
        ("link", ["symlink:Sample.docset/Contents/Resources/alias.dsidx:docSet.dsidx"]),
    ])
    func hostileEntriesOutsideTheDocumentsAreRefused(label: String, entries: [String]) async throws {
        var random = TestRandom(label: label)
        let fixture = try TarixInstallTests.fixture(&random, count: 5)
        defer { fixture.dir.remove() }
        let root = fixture.dir.appending("root")
        let installer = TarixInstallTests.installer(root)
        let good = try Self.flushed(fixture, try fixture.archive(format: "gnu"), as: "good.tgz")
        let old = try await installer.install(archive: good, as: TarixInstallTests.tarixRequest("Sample"))
        let plain = fixture.dir.appending("hostile-plain.tgz")
        _ = try fixture.python(
            ZealScripts.hostile,
            [
                plain, "dir:Sample.docset/", "dir:Sample.docset/Contents/", "file:Sample.docset/Contents/Info.plist",
                "dir:Sample.docset/Contents/Resources/", "file:Sample.docset/Contents/Resources/docSet.dsidx",
            ] + entries)
        let hostile = try Self.flushed(fixture, plain, as: "hostile.tgz")
        do {
            _ = try await installer.install(archive: hostile, as: TarixInstallTests.tarixRequest("Sample"))
            Issue.record("installed \(entries)")
        } catch {
            if label == "traversal" {
                guard case .rejected(_, .parentTraversal) = error else {
                    Issue.record("unexpected error: \(error)")
                    return
                }
            } else {
                #expect(error.isArchiveRejection, "\(error)")
                #expect("\(error)".contains("alias.dsidx"), "\(error)")
            }
        }
        #expect(try installer.installedDocsets().first?.path == old.path)
        #expect(!FileManager.default.fileExists(atPath: "\(root)/evil.html"))
        #expect(!FileManager.default.fileExists(atPath: fixture.dir.appending("evil.html")))
        #expect(Self.staging(root).isEmpty)
    }

    /// An archive kept as it is must be the bytes it was downloaded with: a digest that does not match what the
    /// pass read (the file changed in staging) fails the install.
    @Test func aKeptArchiveMustMatchTheDigestItWasDownloadedWith() async throws {
        var random = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        let fixture = try TarixInstallTests.fixture(&random, count: 10)
        defer { fixture.dir.remove() }
        let flushed = try Self.flushed(fixture, try fixture.archive(format: "gnu"), as: "flushed.tgz")
        let root = fixture.dir.appending("root")
        var request = TarixInstallTests.tarixRequest("Sample")
        request.archiveSHA256 = String(repeating: "ab", count: 32)
        await #expect(throws: InstallError.self) {
            try await TarixInstallTests.installer(root).install(archive: flushed, as: request)
        }
        request.archiveSHA256 = try SafeDirectory.open(fixture.dir.path).digest(of: "flushed.tgz").sha256
        let record = try await TarixInstallTests.installer(root).install(archive: flushed, as: request)
        #expect(record.archiveSHA256 == request.archiveSHA256)
    }
}
