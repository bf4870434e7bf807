import DocSync
import DocSyncInstall
import Foundation
import Synchronization
import TestSupport
import Testing

/// A reader walking the root the way Zeal does — every `*.docset`, its meta.json, Info.plist and docSet.dsidx
/// through SQLite — before, during and after an update, resolving each docset once per scan as the library
/// advises. Every scan must see exactly one docset, complete and of one version.
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct ReaderTests {
    struct Observation: Sendable, Equatable {
        var phase: Int
        var docsets: Int
        var metaVersion: String?
        var plistVersion: String?
        var rows: Int?
    }

    static func scan(root: String, phase: Int) -> Observation {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? [])
            .filter { $0.hasSuffix(".docset") && !$0.hasPrefix(".") }
        guard let name = names.first else { return Observation(phase: phase, docsets: 0) }
        let path = URL(fileURLWithPath: "\(root)/\(name)").resolvingSymlinksInPath().path
        let meta = (try? Data(contentsOf: URL(fileURLWithPath: "\(path)/meta.json")))
            .flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
        let plist = (try? String(contentsOfFile: "\(path)/Contents/Info.plist", encoding: .utf8)) ?? ""
        let plistVersion = plist.range(of: "<key>CFBundleVersion</key><string>").flatMap { start in
            plist[start.upperBound...].split(separator: "<").first.map(String.init)
        }
        return Observation(
            phase: phase, docsets: names.count, metaVersion: meta?["version"] as? String, plistVersion: plistVersion,
            rows: SQLiteIndex.count("\(path)/Contents/Resources/docSet.dsidx"))
    }

    @Test func readerSeesOneCompleteVersionBeforeDuringAndAfterAnUpdate() async throws {
        let h = try InstallHarness()
        defer { h.dir.remove() }
        let old = h.archive("old.tgz")
        let new = h.archive("new.tgz")
        try DocsetFixture.make(version: "old", documents: 3000, indexRows: 3, bytesPerDocument: 3000)
            .writeArchive(to: old)
        try DocsetFixture.make(version: "new", documents: 3000, indexRows: 5, bytesPerDocument: 3000)
            .writeArchive(to: new)
        _ = try await h.installer.install(archive: old, as: InstallRequest(name: h.name, version: "old"))

        let phase = Atomic<Int>(0)
        let observations = Mutex<[Observation]>([])
        let root = h.root
        let done = DispatchSemaphore(value: 0)
        let reader = Thread {
            while true {
                let current = phase.load(ordering: .acquiring)
                if current == 3 { break }
                let observation = Self.scan(root: root, phase: current)
                observations.withLock { $0.append(observation) }
            }
            done.signal()
        }
        reader.start()
        try await Poll.until("three scans before the updates") { () async in observations.withLock { $0.count } >= 3 }
        phase.store(1, ordering: .releasing)
        // Update until scans have run during updates (flip back and forth if one update is quicker than a scan).
        for round in 0..<10 {
            if round > 0 {
                _ = try await h.installer.install(archive: old, as: InstallRequest(name: h.name, version: "old"))
            }
            _ = try await h.installer.install(archive: new, as: InstallRequest(name: h.name, version: "new"))
            if observations.withLock({ list in list.filter { $0.phase == 1 }.count }) >= 2 { break }
        }
        phase.store(2, ordering: .releasing)
        let seen = observations.withLock { $0.count }
        try await Poll.until("three scans after the updates") { () async in observations.withLock { $0.count } >= seen + 3 }
        phase.store(3, ordering: .releasing)
        done.wait()

        let all = observations.withLock { $0 }
        let old3 = Observation(phase: 0, docsets: 1, metaVersion: "old", plistVersion: "old", rows: 3)
        let new5 = Observation(phase: 0, docsets: 1, metaVersion: "new", plistVersion: "new", rows: 5)
        for observation in all {
            var unphased = observation
            unphased.phase = 0
            #expect(unphased == old3 || unphased == new5, "inconsistent scan: \(observation)")
        }
        #expect(all.filter { $0.phase == 0 }.allSatisfy { $0.metaVersion == "old" })
        #expect(all.filter { $0.phase == 2 }.allSatisfy { $0.metaVersion == "new" })
        #expect(all.contains { $0.phase == 1 }, "no scan ran during the update")
    }
}
