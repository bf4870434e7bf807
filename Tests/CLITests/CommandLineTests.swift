import DocSync
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `docsync install` as a process: exit statuses, output, and crash safety under SIGKILL.
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct CommandLineTests {
    private var binary: String {
        get throws {
            let path = Tool.docsyncBinary
            try #require(FileManager.default.isExecutableFile(atPath: path), "build the docsync executable first")
            return path
        }
    }

    @Test func installPrintsJSONAndExitsZero() async throws {
        let h = try InstallHarness()
        defer { h.dir.remove() }
        let path = h.archive("v1.tgz")
        try DocsetFixture.make(version: "1").writeArchive(to: path)
        let result = try Tool.run(
            try binary,
            ["install", path, "--root", h.root, "--name", "Fixture", "--version", "1.0", "--title", "F", "--json"])
        #expect(result.status == 0, "\(result.standardError)")
        let object = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
        #expect(object?["name"] as? String == "Fixture")
        #expect(object?["version"] as? String == "1.0")
        #expect(object?["title"] as? String == "F")
        let resolved = URL(fileURLWithPath: h.docsetPath).resolvingSymlinksInPath().path
        #expect(object?["path"] as? String == resolved)
    }

    @Test func rejectedArchiveExits65AndKeepsTheOldVersion() async throws {
        let h = try InstallHarness()
        defer { h.dir.remove() }
        try await h.installOld()
        let before = try h.snapshot()
        let path = h.archive("evil.tgz")
        try DocsetFixture.make(version: "new").writeArchive(to: path, after: [.file("Fixture.docset/../../x", "x")])
        let result = try Tool.run(try binary, ["install", path, "--root", h.root, "--name", "Fixture"])
        #expect(result.status == 65)
        #expect(result.standardError.contains("'Fixture.docset/../../x' rejected: '..' component"))
        #expect(try h.snapshot() == before)
    }

    @Test func missingArchiveExits74() async throws {
        let h = try InstallHarness()
        defer { h.dir.remove() }
        let result = try Tool.run(
            try binary, ["install", h.archive("none.tgz"), "--root", h.root, "--name", "Fixture"])
        #expect(result.status == 74)
        #expect(result.standardError.contains("none.tgz"))
    }

    /// SIGKILL `docsync install` at random moments while it replaces an installed version. After every kill the root
    /// holds exactly one complete version (old or new, by a manifest of hashes) and nothing else ending in .docset;
    /// the next run completes and clears the leftovers.
    @Test func sigkillAtRandomMomentsLeavesOneCompleteVersion() async throws {
        let h = try InstallHarness()
        defer { h.dir.remove() }
        let versions = ["A", "B"]
        var manifests: [String: [String: String]] = [:]
        for version in versions {
            let fixture = try DocsetFixture.make(version: version, documents: 3000, bytesPerDocument: 4000)
            try fixture.writeArchive(to: h.archive("\(version).tgz"))
            manifests[version] = fixture.expectedManifest
        }
        _ = try binary  // a clear failure when the executable is missing
        func stagingEntries() -> [String] {
            (try? FileManager.default.contentsOfDirectory(atPath: "\(h.root)/.docsync/staging")) ?? []
        }
        func run(_ version: String, killAfter delay: Double?) throws -> Int32 {
            let leftovers = Set(stagingEntries())  // a killed run's, moved to the trash by this one
            let started = try DocSyncProcess(
                [
                    "install", h.archive("\(version).tgz"), "--root", h.root, "--name", h.name, "--version", version,
                    "--grace-seconds", "0",
                ], discardOutput: delay != nil
            )
            guard let delay else {
                // A run nobody kills must succeed: its error output is the failure's message.
                let result = started.finish()
                if result.status != 0 {
                    Issue.record("install \(version) exited \(result.status): \(result.standardError)")
                }
                return result.status
            }
            let process = started.process
            // The kill moment counts from the start of the extraction (a new staging folder appears), not from the
            // process start, which a loaded machine can delay by seconds.
            try Poll.until("a staging folder for the extraction", every: 0.001) {
                !process.isRunning || !Set(stagingEntries()).isSubset(of: leftovers)
            }
            usleep(useconds_t(delay * 1_000_000))
            kill(process.processIdentifier, SIGKILL)
            return process.waitForExit()
        }
        func installedVersion() throws -> String {
            let visible = try FileManager.default.contentsOfDirectory(atPath: h.root).filter { !$0.hasPrefix(".") }
            #expect(visible == ["Fixture.docset"])
            let resolved = URL(fileURLWithPath: h.docsetPath).resolvingSymlinksInPath().path
            let manifest = try TreeSnapshot.of(resolved)
            let match = try #require(versions.first { manifests[$0] == manifest }, "incomplete or mixed tree")
            let meta = try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: "\(resolved)/meta.json")))
            #expect((meta as? [String: Any])?["version"] as? String == match)
            let hidden = try FileManager.default.contentsOfDirectory(atPath: "\(h.root)/.docsync")
            #expect(!hidden.contains { $0.hasSuffix(".docset") })
            return match
        }

        // Calibrate on a replacing run (A then B), which also deletes the replaced version before exiting.
        #expect(try run("A", killAfter: nil) == 0)
        let start = Date()
        #expect(try run("B", killAfter: nil) == 0)
        let duration = Date().timeIntervalSince(start)
        var current = try installedVersion()
        var outcomes: [String: Int] = [:]
        var generator = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        let seed = "seed \(generator.seed) (DOCSYNC_TEST_SEED=\(generator.seed) replays the kill moments)"
        // Kill moments adapt to what the kills observe, not to the calibrated duration alone (a loaded machine
        // makes runs slower or faster than calibrated): a kill that found the new version already in place shrinks
        // the window, one that found the old version widens it. At least 20 kills; more (up to 80) until both
        // outcomes and a kill mid-extraction were seen.
        var window = duration / 2
        var kills = 0
        func enough() -> Bool {
            kills >= 20 && outcomes["old", default: 0] >= 3 && outcomes["new", default: 0] >= 1
                && outcomes["mid-extraction", default: 0] >= 1
        }
        while !enough(), kills < 80 {
            kills += 1
            let target = current == "A" ? "B" : "A"
            _ = try run(target, killAfter: Double.random(in: 0...window, using: &generator))
            let now: String
            do { now = try installedVersion() } catch {
                Issue.record("after a kill, \(seed): \(error)")
                throw error
            }
            outcomes[now == target ? "new" : "old", default: 0] += 1
            window = now == target ? window * 0.7 : min(duration, window * 1.25)
            if try !FileManager.default.contentsOfDirectory(atPath: "\(h.root)/.docsync/staging").isEmpty {
                outcomes["mid-extraction", default: 0] += 1
            }
            current = now
        }
        let target = current == "A" ? "B" : "A"
        #expect(try run(target, killAfter: nil) == 0)
        #expect(try installedVersion() == target)
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(h.root)/.docsync/staging").isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(h.root)/.docsync/trash").isEmpty)
        // Kills must land mid-install often enough for the test to mean something.
        #expect(enough(), "kills: \(outcomes), a full run: \(duration) s, window \(window) s, \(seed)")
    }
}
