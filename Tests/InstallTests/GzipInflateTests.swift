import DocSync
import DocSyncInstall
import Foundation
import TestSupport
import Testing

/// gzip archives are inflated with ISA-L in the read callback: seeded random trees, gzip'd as one member or as
/// several concatenated members (mixed levels, trailing bytes), must install exactly as the same tree's plain tar;
/// truncated and byte-flipped ones must be refused with the archive named.
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct GzipInflateTests {
    /// A docset fixture with random extra files: sizes from empty to ~600 KiB, compressible text and random bytes.
    private func randomFixture(_ random: inout TestRandom) throws -> DocsetFixture {
        var fixture = try DocsetFixture.make(version: "1.0")
        for index in 0..<Int.random(in: 5...40, using: &random) {
            let size = [0, 1, 511, 512, 513, 4096, 70_000, 600_000].randomElement(using: &random)!
            let text = Bool.random(using: &random)
            let data = (0..<size).map { i in
                text ? UInt8(0x61 + (i / 7 + index) % 26) : UInt8.random(in: 0...255, using: &random)
            }
            let folder = ["", "a/", "a/b/", "c/"].randomElement(using: &random)!
            fixture.files["Contents/Resources/Documents/\(folder)f\(index).html"] = (data, 0o644)
        }
        return fixture
    }

    /// `bytes` gzip'd by gzip(1) (no name, no time) at `level`.
    private func gzip(_ bytes: [UInt8], level: Int, in dir: TemporaryDirectory, _ label: String) throws -> [UInt8] {
        let path = dir.appending("chunk-\(label)")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let result = try Tool.run("/bin/gzip", ["-n", "-f", "-\(level)", path])
        #expect(result.status == 0)
        return Array(try Data(contentsOf: URL(fileURLWithPath: path + ".gz")))
    }

    private func install(_ bytes: [UInt8], _ name: String) async throws -> [String: String] {
        let h = try InstallHarness()
        defer { h.dir.remove() }
        let path = h.archive(name)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let installed = try await h.installer.install(archive: path, as: InstallRequest(name: h.name, version: "1.0"))
        return try TreeSnapshot.of(installed.path)
    }

    /// Expects the damaged archive refused as unreadable, naming the archive. With `entryRejected`, an entry the
    /// damage made unsafe may be refused first: a byte flipped inside a pax record's data (which no tar checksum
    /// covers) can yield an unsafe path before gzip's CRC, at the member's end, is read.
    private func expectRefused(
        _ bytes: [UInt8], _ what: String, seed: UInt64, entryRejected: Bool = false
    ) async throws {
        let h = try InstallHarness()
        defer { h.dir.remove() }
        let path = h.archive("damaged.tgz")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        try await h.expectRejected(path, context: "(\(what), seed \(seed))") { error in
            if entryRejected, case .rejected = error { return true }
            guard case .unreadableArchive(let message) = error else { return false }
            let named = message.contains(path)
            if !named { Issue.record("\(what): message does not name the archive: \(message) (seed \(seed))") }
            return named
        }
    }

    @Test func randomTreesInflateLikeThePlainTar() async throws {
        var random = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        let seed = random.seed
        let work = try TemporaryDirectory()
        defer { work.remove() }
        for round in 0..<3 {
            let fixture = try randomFixture(&random)
            let tarPath = work.appending("tree\(round).tar")
            try fixture.writeArchive(to: tarPath, format: .pax, filter: .none)
            let tar = Array(try Data(contentsOf: URL(fileURLWithPath: tarPath)))
            let expected = try await install(tar, "plain.tar")
            #expect(expected == fixture.expectedManifest, "plain tar (seed \(seed))")

            let single = try gzip(tar, level: Int.random(in: 1...9, using: &random), in: work, "\(round)")
            #expect(try await install(single, "one.tgz") == expected, "one member (seed \(seed))")

            // Several members: the tar cut at random points, each piece gzip'd on its own (a piece may be empty).
            let pieces = Int.random(in: 2...6, using: &random)
            let inner = (1..<pieces).map { _ in Int.random(in: 0...tar.count, using: &random) }
            let cuts = [0] + inner.sorted() + [tar.count]
            var members: [UInt8] = []
            var boundaries: Set<Int> = []
            for (index, (start, end)) in zip(cuts, cuts.dropFirst()).enumerated() {
                let level = Int.random(in: 1...9, using: &random)
                members += try gzip(Array(tar[start..<end]), level: level, in: work, "\(round)-\(index)")
                boundaries.insert(members.count)
            }
            #expect(try await install(members, "members.tgz") == expected, "\(cuts.count - 1) members (seed \(seed))")

            // Bytes after the last member that start no member are ignored (gzip(1) and libarchive do the same).
            let trailing = Bool.random(using: &random) ? [UInt8](repeating: 0, count: 1000) : Array("junk\n".utf8)
            #expect(try await install(single + trailing, "trailing.tgz") == expected, "trailing bytes (seed \(seed))")

            // Truncated anywhere but at a member boundary (a shorter valid stream).
            var cut = Int.random(in: 1..<members.count, using: &random)
            while boundaries.contains(cut) { cut = Int.random(in: 1..<members.count, using: &random) }
            try await expectRefused(Array(members[..<cut]), "truncated at \(cut) of \(members.count)", seed: seed)
            let singleCut = Int.random(in: 1..<single.count, using: &random)
            try await expectRefused(Array(single[..<singleCut]), "truncated at \(singleCut)", seed: seed)

            // One byte flipped past the 10-byte header (whose time and OS fields no checksum covers).
            var flipped = single
            let at = Int.random(in: 10..<single.count, using: &random)
            flipped[at] ^= 0xFF
            try await expectRefused(flipped, "byte \(at) of \(single.count) flipped", seed: seed, entryRejected: true)
        }
    }
}
