import DocSync
import DocSyncInstall
import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// `docsync changes` as a backend in another language uses it: SIGKILL loops around the log (the last record for a
/// docset always names the version its link shows), a reader that may only read the root, `--follow`, and the exit
/// status of a forged cursor.
@Suite(.timeLimit(.minutes(10)), .blockingWaits)
struct ChangesCommandTests {
    /// A root with archives of versions "a" and "b" of `Fixture` beside it.
    struct Root {
        let dir: TemporaryDirectory
        var root: String { dir.appending("root") }

        init() throws {
            dir = try TemporaryDirectory("changes")
            for version in ["a", "b"] {
                try DocsetFixture.make(version: version, documents: 60, bytesPerDocument: 4000)
                    .writeArchive(to: dir.appending("\(version).tgz"))
            }
        }

        func install(_ version: String) throws -> DocSyncProcess {
            try DocSyncProcess(
                ["install", dir.appending("\(version).tgz"), "--root", root, "--name", "Fixture", "--version", version,
                 "--grace-seconds", "0"], discardOutput: true)
        }

        func docsync(_ arguments: [String]) throws -> Tool.Result { try Tool.run(Tool.docsyncBinary, arguments) }

        /// The version `Fixture.docset` shows (nil: none). Versions "a" and "b" each have one content, so the
        /// version names it (a reinstall of the same bytes flips to a new folder and records nothing).
        var shown: String? {
            guard (try? FileManager.default.destinationOfSymbolicLink(atPath: "\(root)/Fixture.docset")) != nil else {
                return nil
            }
            return (try? Installer(root: root).installedDocsets())?.first { $0.name == "Fixture" }?.version
        }

        /// What the log reports last for `Fixture`: the version it names (nil: removed, or no record).
        func lastWord() throws -> (found: Bool, version: String?) {
            let records = try ChangeLogReader(root: root).read(since: nil).records
            guard let last = records.last(where: { $0.docset == "Fixture" }) else { return (false, nil) }
            return (true, last.to?.version)
        }
    }

    @Test func sigkillAtRandomMomentsLeavesTheLogsLastWordOnTheLink() throws {
        let r = try Root()
        defer { r.dir.remove() }
        var generator = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        let seed = "seed \(generator.seed) (DOCSYNC_TEST_SEED=\(generator.seed) replays the kill moments)"
        // How long one install takes here: kills land anywhere in it, the record and the flip included.
        let started = ContinuousClock.now
        #expect(try r.install("a").finish().status == 0)
        let micros = UInt32(max((ContinuousClock.now - started) / .microseconds(1), 20_000))
        func check(_ when: String) throws {
            let word = try r.lastWord()
            if let shown = r.shown {
                #expect(word.found && word.version == shown, "\(when): link \(shown), log \(word), \(seed)")
            } else {
                #expect(!word.found || word.version == nil, "\(when): no link, log \(word), \(seed)")
            }
        }
        for trial in 0..<14 {
            let last = try? ChangeLogReader(root: r.root).read(since: nil).records.last?.to?.version
            let next = last == "a" ? "b" : "a"
            let removing = trial % 5 == 4
            let process = removing
                ? try DocSyncProcess(["remove", "--root", r.root, "Fixture"], discardOutput: true) : try r.install(next)
            usleep(UInt32.random(in: 0...(removing ? 30_000 : micros * 6 / 5), using: &generator))  // the kill moment
            process.kill()
            try check("trial \(trial) (\(removing ? "remove" : "install \(next)") killed)")
        }
        // The next change recovers under the lock: the log and the link agree, the new record follows on.
        let final = try r.install("b").finish()
        #expect(final.status == 0, "\(final.standardError)")
        try check("after the final install")
        let records = try ChangeLogReader(root: r.root).read(since: nil).records
        #expect(records.map(\.sequence) == Array(1...UInt64(records.count)), "\(seed)")
        // Each record's `from` is the previous record's `to`: no change is missing from the log.
        for (before, after) in zip(records, records.dropFirst()) {
            #expect(after.from?.version == before.to?.version, "\(records.map(\.line)), \(seed)")
        }
    }

    @Test func aUserWhoMayOnlyReadTheRootReadsTheChanges() throws {
        let r = try Root()
        defer { r.dir.remove() }
        #expect(try r.install("a").finish().status == 0)
        #expect(try r.install("b").finish().status == 0)
        // The binary copied where `nobody` may run it; HOME without a configuration file.
        let binary = r.dir.appending("docsync")
        try FileManager.default.copyItem(atPath: Tool.docsyncBinary, toPath: binary)
        let environment = ["HOME": r.dir.path, "PATH": "/usr/bin:/bin", "XDG_CONFIG_DIRS": r.dir.appending("none")]
        let result = try Tool.run(
            "/usr/bin/setpriv",
            ["--reuid=65534", "--regid=65534", "--clear-groups", "--", binary, "changes", "--root", r.root, "--json"],
            environment: environment)
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first?.contains(#""kind":"installed""#) == true && lines.first?.contains(#""to":"a""#) == true)
        #expect(lines.last?.contains(#""kind":"updated""#) == true && lines.last?.contains(#""from":"a""#) == true)
        #expect(!FileManager.default.fileExists(atPath: r.dir.appending("none")))
    }

    @Test func followPrintsEachChangeAsItIsMade() throws {
        let r = try Root()
        defer { r.dir.remove() }
        #expect(try r.install("a").finish().status == 0)
        let cursor = try r.docsync(["changes", "--root", r.root, "--cursor"])
        #expect(cursor.status == 0 && !cursor.standardOutput.isEmpty, "\(cursor.standardError)")
        let follower = try DocSyncProcess(
            ["changes", "--root", r.root, "--follow", "--json", "--since",
             cursor.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)])
        defer { follower.kill() }
        let output = OutputReader(try #require(follower.output))
        #expect(try r.install("b").finish().status == 0)
        let flipped = ContinuousClock.now
        #expect(output.read(timeout: 20) { $0.contains(#""to":"b""#) }, "got \(output.text)")
        print("changes --follow: the change arrived \(ContinuousClock.now - flipped) after the install returned")
        #expect(!output.text.contains(#""to":"a""#))  // nothing before the cursor
        #expect(try r.docsync(["remove", "--root", r.root, "Fixture"]).status == 0)
        #expect(output.read(timeout: 20) { $0.contains(#""kind":"removed""#) }, "got \(output.text)")
    }

    @Test func aForgedCursorExitsSayingToRescan() throws {
        let r = try Root()
        defer { r.dir.remove() }
        #expect(try r.install("a").finish().status == 0)
        let result = try r.docsync(["changes", "--root", r.root, "--since", "0123456789abcdef-1"])
        #expect(result.status == 65)
        #expect(result.standardError.contains("rescan"), "\(result.standardError)")
        let text = try r.docsync(["changes", "--root", r.root])
        #expect(text.status == 0 && text.standardOutput.contains("\tinstalled\tFixture\t-\ta\n"), "\(text)")
        // `--json` as a backend polls it (read without ArgumentParser's tree) ends the same way.
        let json = try r.docsync(["changes", "--root", r.root, "--json", "--since", "0123456789abcdef-1"])
        #expect(json.status == 65 && json.standardError == result.standardError, "\(json)")
    }

    /// `changes --json --root R` (read without ArgumentParser's tree) prints what `--root=R` (ArgumentParser's
    /// reading of the same options) prints, and so does a cursor.
    @Test func theFastReadingOfTheOptionsPrintsWhatArgumentParsersDoes() throws {
        let r = try Root()
        defer { r.dir.remove() }
        #expect(try r.install("a").finish().status == 0)
        #expect(try r.install("b").finish().status == 0)
        let fast = try r.docsync(["changes", "--json", "--root", r.root])
        let parsed = try r.docsync(["changes", "--json", "--root=\(r.root)"])
        #expect(fast.status == 0 && parsed.status == 0, "\(fast) \(parsed)")
        #expect(fast.standardOutput == parsed.standardOutput && fast.standardOutput.split(separator: "\n").count == 2)
        // The first change's cursor (text lines: CURSOR, tab, ...).
        let text = try r.docsync(["changes", "--root", r.root]).standardOutput
        let cursor = String(try #require(text.split(separator: "\t").first))
        let after = try r.docsync(["changes", "--json", "--root", r.root, "--since", cursor])
        let afterParsed = try r.docsync(["changes", "--json", "--root", r.root, "--since=\(cursor)"])
        #expect(after.status == 0 && after.standardOutput == afterParsed.standardOutput, "\(after) \(afterParsed)")
        #expect(after.standardOutput.split(separator: "\n").count == 1, "\(after)")
    }
}
