import DocSync
import DocSyncInstall
import DocSyncSupport
import DocSyncTarix
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The re-encode deflates on two worker threads: records are cut into jobs (a record larger than a job goes in
/// pieces to one worker), compressed independently between full flushes and written back in order, the trailer's
/// CRC-32 combined from the jobs'. The output must be one valid gzip stream whose every record Zeal reads cold.
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct TarixParallelDeflateTests {
    /// Files larger than the job size (random and compressible, one an exact multiple of it) among thousands of
    /// tiny records (empty files, one-byte files, folders).
    static func fixture(_ random: inout TestRandom, jobBytes: Int) throws -> TarixFixture {
        var fixture = try TarixFixture.make(&random, count: 150)
        let documents = TarixFixture.documents
        var extra: [String: [UInt8]] = [:]
        for i in 0..<1500 {
            extra["\(documents)/tiny/\(i % 40)/t\(i).html"] = i % 3 == 0 ? [] : [UInt8(ascii: "a") + UInt8(i % 26)]
        }
        let bigSizes = [jobBytes * 2, jobBytes + 1, jobBytes * 3 + Int.random(in: 1..<jobBytes, using: &random)]
        for (n, size) in bigSizes.enumerated() {
            extra["\(documents)/big/random-\(n).bin"] = (0..<size).map { _ in
                UInt8.random(in: 0...255, using: &random)
            }
            let words = (0..<size / 8).map { _ in "w\(Int.random(in: 0..<5000, using: &random)) " }.joined()
            extra["\(documents)/big/text-\(n).html"] = Array(words.utf8.prefix(size))
        }
        for (path, bytes) in extra {
            let full = fixture.root + "/" + path
            try FileManager.default.createDirectory(
                atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(bytes).write(to: URL(fileURLWithPath: full))
            fixture.files[path] = bytes
        }
        return fixture
    }

    /// Re-encodes `source` with `TarixWriter` at `jobBytes`, feeding it in chunks of random sizes.
    static func reencode(
        _ fixture: TarixFixture, _ source: String, jobBytes: Int, label: String, _ random: inout TestRandom
    ) throws -> (archive: String, index: String, summary: TarixSummary)
    {
        let compressed = try Array(Data(contentsOf: URL(fileURLWithPath: source)))
        let output = fixture.dir.appending("parallel-\(label).tgz")
        let index = fixture.dir.appending("parallel-\(label).db")
        let fd = open(output, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        defer { close(fd) }
        let writer = try TarixWriter(archive: fd, archiveName: output, indexPath: index, jobBytes: jobBytes)
        let decoder = try GzipDecoder(name: source)
        var at = 0
        while at < compressed.count {
            let n = min(compressed.count - at, Int.random(in: 1...200_000, using: &random))
            try compressed[at..<(at + n)].withUnsafeBytes { chunk in
                try decoder.write(chunk) { tar throws(TarixError) in try writer.write(tar) }
            }
            at += n
        }
        try decoder.finish()
        return (output, index, try writer.finish())
    }

    @Test(arguments: [4 << 10, 64 << 10, ParallelDeflater.defaultJobBytes])
    func recordsLargerThanAJobAndThousandsOfTinyOnesReadBack(jobBytes: Int) throws {
        var random = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        let seed = "seed \(random.seed), job \(jobBytes) B"
        let fixture = try Self.fixture(&random, jobBytes: jobBytes)
        defer { fixture.dir.remove() }
        let source = try fixture.archive(format: "pax")
        let store = try Self.reencode(fixture, source, jobBytes: jobBytes, label: "\(jobBytes)", &random)
        #expect(store.summary.mode == .reencoded, "\(seed)")
        #expect(store.summary.documents == fixture.files.count, "\(seed)")

        // One valid gzip stream (CRC-32 and length checked by gzip), inflating to the source's tar byte for byte.
        let test = try Tool.run("/usr/bin/gzip", ["-t", store.archive])
        #expect(test.status == 0, "gzip -t: \(test.standardError), \(seed)")
        let tarOut = fixture.dir.appending("out-\(jobBytes).tar")
        let tarIn = fixture.dir.appending("in-\(jobBytes).tar")
        _ = try Tool.run("/bin/sh", ["-c", "gzip -dc \"$1\" > \"$2\" && gzip -dc \"$3\" > \"$4\"", "sh", store.archive,
            tarOut, source, tarIn])
        #expect(FileManager.default.contentsEqual(atPath: tarOut, andPath: tarIn), "\(seed)")
        #expect(store.summary.tarBytes == fixture.fileSize(tarIn), "\(seed)")
        // The digest is of the bytes on disk.
        let digest = try SafeDirectory.open(fixture.dir.path).digest(of: "parallel-\(jobBytes).tgz").sha256
        #expect(store.summary.archiveSHA256 == digest, "\(seed)")

        // Every indexed offset is a flush point (checked cold), and Zeal's algorithm reads every document back.
        let verified = try fixture.verify(store.archive, store.index)
        #expect(verified.documents == fixture.files.count, "\(seed)")
        let extracted = try fixture.extract(source, label: "\(jobBytes)")
        let zeal = try fixture.python(ZealScripts.reader, [store.archive, store.index, extracted])
        #expect(zeal == "OK \(fixture.files.count)\n", "\(seed)")
        let reader = try TarixArchive(archivePath: store.archive, indexPath: store.index)
        for (path, bytes) in fixture.files where path.contains("/big/") {
            #expect(try reader.read(path) == bytes, "\(path), \(seed)")
        }
    }

    /// A plain archive installs in one pass (the re-encode's walk extracts what lies outside `Documents/`, a file
    /// larger than a job among them); the manifest's digests are the source's and the written store's, and
    /// `verify` finds the docset intact.
    @Test func aPlainArchiveInstallsInOnePassReencoding() async throws {
        var random = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        let seed = "seed \(random.seed)"
        var fixture = try TarixInstallTests.fixture(&random, count: 40)
        defer { fixture.dir.remove() }
        let big = (0..<(ParallelDeflater.defaultJobBytes * 5 / 2)).map { _ in
            UInt8.random(in: 0...255, using: &random)
        }
        fixture.files["Contents/Resources/big.bin"] = big
        try Data(big).write(to: URL(fileURLWithPath: fixture.root + "/Contents/Resources/big.bin"))
        let source = try fixture.archive(format: "gnu")
        let root = fixture.dir.appending("root")
        let installer = TarixInstallTests.installer(root)
        let record = try await installer.install(archive: source, as: TarixInstallTests.tarixRequest("Sample"))
        let meta = try TarixInstallTests.meta(record.path)
        #expect(meta["tarix_mode"] as? String == "reencoded", "\(seed)")
        let store = "\(record.path)/Contents/Resources"
        #expect(meta["tarix_sha256"] as? String == (try SafeDirectory.open(store).digest(of: "tarix.tgz").sha256))
        let sourceDigest = try SafeDirectory.open(fixture.dir.path).digest(of: (source as NSString).lastPathComponent)
        #expect(meta["archive_sha256"] as? String == sourceDigest.sha256)
        #expect(
            TarixInstallTests.files(below: record.path) == [
                "Contents/Info.plist", "Contents/Resources/big.bin", "Contents/Resources/docSet.dsidx",
                "Contents/Resources/tarix.tgz", "Contents/Resources/tarixIndex.db", "meta.json",
            ], "\(seed)")
        let copied = try Data(contentsOf: URL(fileURLWithPath: "\(store)/big.bin"))
        #expect([UInt8](copied) == big, "\(seed)")
        #expect(try await installer.verify(names: ["Sample"]).map(\.status) == [.intact], "\(seed)")
        #expect(TarixOnePassTests.staging(root).isEmpty, "no staging folder left")
        let gzip = try Tool.run("/usr/bin/gzip", ["-t", "\(store)/tarix.tgz"])
        #expect(gzip.status == 0, "\(gzip.standardError)")
        let docset = InstalledDocset(record)
        for (path, bytes) in fixture.files where path.hasPrefix(TarixFixture.documents + "/") {
            let page = String(path.dropFirst(TarixFixture.documents.count + 1))
            #expect(try await docset.contents(of: page) == bytes, "\(page), \(seed)")
        }
    }
}
