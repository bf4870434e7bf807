import DocSyncSupport
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The tarix layout through the `docsync` executable: `install --layout tarix`, `status`, `cat`, `verify`, and
/// SIGKILL at random moments of a tarix install.
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct TarixCommandLineTests {
    static func docsync(_ arguments: [String]) throws -> Tool.Result {
        let path = Tool.docsyncBinary
        try #require(FileManager.default.isExecutableFile(atPath: path), "build the docsync executable first")
        return try Tool.run(path, arguments)
    }

    @Test func installStatusCatAndVerifyATarixDocset() throws {
        var random = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        let fixture = try TarixInstallTests.fixture(&random, count: 80)
        defer { fixture.dir.remove() }
        let source = try fixture.archive(format: "pax")
        let root = fixture.dir.appending("root")
        let installed = try Self.docsync(["install", source, "--root", root, "--name", "Sample", "--layout", "tarix"])
        #expect(installed.status == 0, "\(installed.standardError)")
        #expect(installed.standardOutput.contains("tarix"))

        let status = try Self.docsync(["status", "--root", root, "--state", fixture.dir.appending("state"), "--json"])
        #expect(status.status == 0, "\(status.standardError)")
        let object = try JSONSerialization.jsonObject(with: Data(status.standardOutput.utf8)) as? [String: Any]
        let docset = try #require((object?["docsets"] as? [[String: Any]])?.first)
        #expect(docset["layout"] as? String == "tarix")
        let disk = try #require((object?["disk"] as? [[String: Any]])?.first)
        #expect(disk["layout"] as? String == "tarix")
        #expect(disk["files"] as? Int == 5)
        #expect((disk["bytes"] as? Int ?? 0) > 0)
        let reader = try #require((object?["readers"] as? [[String: Any]])?.first)
        #expect(reader["zeal_loadable"] as? Bool == true)
        let text = try Self.docsync(["status", "--root", root, "--state", fixture.dir.appending("state")])
        #expect(text.standardOutput.contains("tarix, 5 files"), "\(text.standardOutput)")
        #expect(text.standardOutput.contains("(from a local archive)"), "\(text.standardOutput)")

        let page = "section-3/part-0/page-3.html"
        let cat = try Self.docsync(["cat", "Sample", page, "--root", root])
        #expect(cat.status == 0, "\(cat.standardError)")
        #expect(Array(cat.standardOutput.utf8) == fixture.files["\(TarixFixture.documents)/\(page)"])
        let missing = try Self.docsync(["cat", "Sample", "nope.html", "--root", root])
        #expect(missing.status == 64)
        #expect(missing.standardError.contains("no such page"))

        let verify = try Self.docsync(["verify", "--root", root, "--state", fixture.dir.appending("state")])
        #expect(verify.status == 0, "\(verify.standardOutput) \(verify.standardError)")
        #expect(verify.standardOutput.contains("intact    Sample"))
        // Damage the archive in place (root can write a read-only file): verify reports it.
        let store = URL(fileURLWithPath: "\(root)/Sample.docset").resolvingSymlinksInPath().path
            + "/Contents/Resources/tarix.tgz"
        let handle = try #require(FileHandle(forUpdatingAtPath: store))
        try handle.seek(toOffset: 100)
        try handle.write(contentsOf: Data([0xFF, 0x00, 0xFF]))
        try handle.close()
        let damaged = try Self.docsync(["verify", "--root", root, "--state", fixture.dir.appending("state")])
        #expect(damaged.status == 3, "\(damaged.standardOutput)")
        #expect(damaged.standardOutput.contains("DAMAGED   Sample"))
    }

    /// SIGKILL `docsync install --layout tarix` at random moments while it replaces a tarix version: after every
    /// kill the root holds one complete version, old or new (a manifest of hashes over the whole version folder,
    /// tarix.tgz and tarixIndex.db included), never a mix; the next run completes.
    @Test func sigkillDuringATarixInstallLeavesOldOrNew() throws {
        var random = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        let seed = "seed \(random.seed) (DOCSYNC_TEST_SEED=\(random.seed) replays the kill moments)"
        let a = try TarixInstallTests.fixture(&random, count: 1500)
        let b = try TarixInstallTests.fixture(&random, count: 1200)
        defer {
            a.dir.remove()
            b.dir.remove()
        }
        let archives = ["A": try a.archive(format: "gnu"), "B": try b.archive(format: "gnu")]
        let root = a.dir.appending("root")
        let docsetPath = "\(root)/Sample.docset"
        _ = try Self.docsync(["--help"])  // a clear failure when the executable is missing
        func stagingEntries() -> Set<String> {
            Set((try? FileManager.default.contentsOfDirectory(atPath: "\(root)/.docsync/staging")) ?? [])
        }
        func run(_ version: String, killAfter delay: Double?) throws -> Int32 {
            let leftovers = stagingEntries()
            let process = try DocSyncProcess(
                [
                    "install", archives[version]!, "--root", root, "--name", "Sample", "--version", version,
                    "--layout", "tarix", "--grace-seconds", "0",
                ], discardOutput: true
            ).process
            if let delay {
                // The kill moment counts from the start of the install (a new staging folder appears).
                try Poll.until("a staging folder for the install", every: 0.001) {
                    !process.isRunning || !stagingEntries().isSubset(of: leftovers)
                }
                usleep(useconds_t(delay * 1_000_000))
                kill(process.processIdentifier, SIGKILL)
            }
            return process.waitForExit()
        }
        func manifest() throws -> [String: String] {
            let visible = try FileManager.default.contentsOfDirectory(atPath: root).filter { !$0.hasPrefix(".") }
            #expect(visible == ["Sample.docset"], "\(seed)")
            return try TreeSnapshot.of(URL(fileURLWithPath: docsetPath).resolvingSymlinksInPath().path)
        }
        #expect(try run("A", killAfter: nil) == 0)
        let manifestA = try manifest()
        let start = Date()
        #expect(try run("B", killAfter: nil) == 0)
        let duration = Date().timeIntervalSince(start)
        let manifestB = try manifest()
        #expect(manifestA["Contents/Resources/tarix.tgz"] != nil && manifestA != manifestB)
        var current = "B"
        var outcomes: [String: Int] = [:]
        // The window adapts to what kills find (a loaded machine is slower or quicker than calibrated): a kill that
        // found the new version in place shrinks it, one that found the old version widens it. At least 12 kills;
        // more (up to 40) until both outcomes were seen.
        var window = duration / 2
        var kills = 0
        while kills < 12 || (outcomes.count < 2 && kills < 40) {
            kills += 1
            let target = current == "A" ? "B" : "A"
            let delay = Double.random(in: 0...window, using: &random)
            _ = try run(target, killAfter: delay)
            let now = try manifest()
            if now == manifestA {
                current = "A"
            } else if now == manifestB {
                current = "B"
            } else {
                Issue.record("kill \(kills) after \(delay) s, \(seed): neither version complete: \(now.count) paths")
                return
            }
            outcomes[current == target ? "new" : "old", default: 0] += 1
            window = current == target ? window * 0.7 : min(duration * 2, window * 1.25)
        }
        #expect(outcomes.count == 2, "both outcomes seen: \(outcomes), \(seed)")
        let target = current == "A" ? "B" : "A"
        #expect(try run(target, killAfter: nil) == 0)
        #expect(try manifest() == (target == "A" ? manifestA : manifestB))
        print("tarix SIGKILL outcomes: \(outcomes) (calibrated \(duration) s), \(seed)")
    }
}
