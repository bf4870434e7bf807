import DocSyncTarix
import Foundation
import TestSupport
import Testing

/// The streaming pieces take their input in chunks of any size, and flush points are proven, not assumed.
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct TarixStreamingTests {
    @Test func writerTakesAnyChunking() throws {
        var random = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        let fixture = try TarixFixture.make(&random, count: 80)
        defer { fixture.dir.remove() }
        let source = try fixture.archive(format: "pax")
        let compressed = try Array(Data(contentsOf: URL(fileURLWithPath: source)))
        let output = fixture.dir.appending("chunked.tgz")
        let index = fixture.dir.appending("chunked.db")
        let fd = open(output, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        defer { close(fd) }
        let writer = try TarixWriter(archive: fd, archiveName: output, indexPath: index)
        let decoder = try GzipDecoder(name: source)
        var at = 0
        var tarChunks = 0
        while at < compressed.count {
            let n = min(compressed.count - at, [1, 7, 512, 513, 4096, 70_000].randomElement(using: &random)!)
            try compressed[at..<(at + n)].withUnsafeBytes { chunk in
                try decoder.write(chunk) { tar throws(TarixError) in
                    // Split what the decoder hands out again, down to single bytes.
                    var rest = tar
                    while !rest.isEmpty {
                        let take = min(rest.count, Int.random(in: 1...1500, using: &random))
                        try writer.write(UnsafeRawBufferPointer(rebasing: rest[0..<take]))
                        rest = UnsafeRawBufferPointer(rebasing: rest[take...])
                        tarChunks += 1
                    }
                }
            }
            at += n
        }
        try decoder.finish()
        let summary = try writer.finish()
        #expect(summary.documents == fixture.files.count, "seed \(random.seed)")
        _ = try fixture.verify(output, index)
        let extracted = try fixture.extract(source, label: "chunked")
        #expect(
            try fixture.python(ZealScripts.reader, [output, index, extracted]) == "OK \(fixture.files.count)\n",
            "seed \(random.seed), \(tarChunks) tar chunks")
    }

    @Test func syncFlushIsNotAFullFlush() throws {
        var random = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        let fixture = try TarixFixture.make(&random, count: 60)
        defer { fixture.dir.remove() }
        let source = try fixture.archive(format: "gnu")
        let archive = fixture.dir.appending("sync.tgz")
        let index = fixture.dir.appending("sync.db")
        _ = try fixture.python(ZealScripts.writer, [source, archive, index, "sync"])
        // Byte-aligned boundaries at every record, but later records refer back across them: the publisher's index
        // is refused, naming a row, and building re-encodes rather than trusting the alignment.
        do {
            _ = try fixture.verify(archive, index)
            Issue.record("a sync-flushed archive's index was accepted (seed \(random.seed))")
        } catch let error as TarixError {
            #expect(error.kind == "bad_index", "\(error)")
            #expect(error.subject.hasPrefix("Sample.docset/"), "\(error)")
        }
        let built = try fixture.build(archive, label: "resync")
        #expect(built.summary.mode == .reencoded, "seed \(random.seed)")
        _ = try fixture.verify(built.archive, built.index)
        let extracted = try fixture.extract(source, label: "sync")
        #expect(
            try fixture.python(ZealScripts.reader, [built.archive, built.index, extracted])
                == "OK \(fixture.files.count)\n")
    }

    @Test func paxGlobalHeaderIsARecordOfItsOwn() throws {
        var random = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        let fixture = try TarixFixture.make(&random, count: 20)
        defer { fixture.dir.remove() }
        // Python's tarfile writes a pax global header (`g`) first when given global pax headers; long names become
        // per-entry pax headers.
        let source = fixture.dir.appending("global.tgz")
        let script = """
            import sys, tarfile
            with tarfile.open(sys.argv[1], "w:gz", format=tarfile.PAX_FORMAT, pax_headers={"comment": "docs"}) as t:
                t.add(sys.argv[2], arcname="Sample.docset")
            """
        _ = try fixture.python(script, [source, fixture.root])
        let built = try fixture.build(source, label: "global")
        #expect(built.summary.documents == fixture.files.count, "seed \(random.seed)")
        _ = try fixture.verify(built.archive, built.index)
        let extracted = try fixture.extract(source, label: "global")
        #expect(
            try fixture.python(ZealScripts.reader, [built.archive, built.index, extracted])
                == "OK \(fixture.files.count)\n")
    }

    @Test func multiMemberGzipIsReencoded() throws {
        var random = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        let fixture = try TarixFixture.make(&random, count: 30)
        defer { fixture.dir.remove() }
        // The tar split across two gzip members (`gzip -dc` reads both): not a tarix archive, but a fine source.
        let tar = fixture.dir.appending("plain.tar")
        try fixture.run(
            "/usr/bin/tar", ["--format=gnu", "-cf", tar, "-C", fixture.dir.appending("tree"), fixture.name])
        let source = fixture.dir.appending("two-members.tgz")
        try fixture.run(
            "/bin/sh",
            ["-c", "(head -c 20480 \(tar) | gzip; tail -c +20481 \(tar) | gzip) > \(source)"])
        let built = try fixture.build(source, label: "members")
        #expect(built.summary.mode == .reencoded)
        #expect(built.summary.documents == fixture.files.count)
        _ = try fixture.verify(built.archive, built.index)
    }
}
