import DocSync
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A lease keeps one version (and its derived index) through updates and prunes, until it is released or its
/// holder dies — here with a grace period of 0 s, so only the lease keeps a replaced version.
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct LeaseTests {
    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test func aLeaseHoldsAVersionAcrossAnUpdateAndAPrune() async throws {
        let h = try ReaderHarness()
        defer { h.remove() }
        let v1 = try await h.install("A", version: "1")
        let lease = try await h.engine.lease("A")
        #expect(lease.isHeld && lease.path == v1.path && lease.docset.version == "1")
        #expect(lease.documentsPath == v1.path + "/Contents/Resources/Documents")
        let v1Index = URL(fileURLWithPath: v1.path).lastPathComponent

        let v2 = try await h.install("A", version: "2")
        try await h.prune()
        try await h.prune()
        #expect(h.versions.count == 2, "the leased v1 outlives its grace period: \(h.versions)")
        #expect(h.derivedIndexes.contains(v1Index), "and so does its derived index: \(h.derivedIndexes)")
        #expect(Self.text(try await lease.contents(of: "page0.html")).contains("1 page 0"))
        #expect(Self.text(try await v2.contents(of: "page0.html")).contains("2 page 0"))
        #expect(try h.engine.installedDocsets().map(\.path) == [v2.path], "readers of NAME.docset see v2")
        // A second lease of the same name pins the current version; both coexist.
        let second = try await h.engine.lease("A")
        #expect(second.path == v2.path)

        lease.release()
        lease.release()  // idempotent
        #expect(!lease.isHeld)
        try await h.prune()
        #expect(h.versions == [URL(fileURLWithPath: v2.path).lastPathComponent], "released: the next prune deletes v1")
        #expect(!h.derivedIndexes.contains(v1Index))
        #expect(!FileManager.default.fileExists(atPath: "\(h.root)/.docsync/leases/\(v1Index)"), "its lease file too")
        withExtendedLifetime(second) {}
    }

    @Test func aLeaseDroppedWithoutReleaseIsReleased() async throws {
        let h = try ReaderHarness()
        defer { h.remove() }
        try await h.install("A", version: "1")
        do {
            let lease = try await h.engine.lease("A")
            #expect(lease.isHeld)
        }
        try await h.install("A", version: "2")
        try await h.prune()
        #expect(h.versions.count == 1)
    }

    @Test func leasingWhatIsNotInstalledNamesTheNearest() async throws {
        let h = try ReaderHarness()
        defer { h.remove() }
        try await h.install("Alpha", version: "1")
        await #expect {
            _ = try await h.engine.lease("Alpah")
        } throws: { error in
            guard let failure = error as? SyncFailure else { return false }
            return failure.code == .notInstalled && failure.message.contains("did you mean \"Alpha\"")
        }
        await #expect(throws: SyncFailure.self) { _ = try await h.engine.lease("../x") }
    }

    /// Leases taken while installs replace and prune the version they are aimed at (grace 0 s): whichever version
    /// a lease ends up holding exists when it is returned and survives the prunes that follow, until released.
    @Test func leasesRacingInstallsAndPrunesAlwaysHoldAVersionThatStays() async throws {
        let h = try ReaderHarness()
        defer { h.remove() }
        try await h.install("A", version: "0")
        var held: [DocsetLease] = []
        for round in 1...12 {
            let engine = h.engine
            let leases = try await withThrowingTaskGroup(of: DocsetLease?.self) { group in
                group.addTask {
                    try await h.install("A", version: "\(round)")
                    return nil
                }
                for _ in 0..<3 { group.addTask { try await engine.lease("A") } }
                var leases: [DocsetLease] = []
                for try await lease in group { if let lease { leases.append(lease) } }
                return leases
            }
            for lease in leases {
                let version = try #require(lease.docset.version)
                let page = String(decoding: try await lease.contents(of: "page0.html"), as: UTF8.self)
                #expect(page.contains("\(version) page 0"), "round \(round): the leased folder is there and whole")
            }
            held += leases
        }
        try await h.prune()
        for lease in held { #expect(FileManager.default.fileExists(atPath: lease.path), "\(lease.path)") }
        let pinned = Set(held.map(\.path)).count
        #expect(h.versions.count == Set(held.map(\.path) + [try h.engine.installedDocsets()[0].path]).count)
        held.forEach { $0.release() }
        try await h.prune()
        #expect(h.versions.count == 1, "all released: only the current version is left (\(pinned) were pinned)")
    }

    /// Starts `docsync lease A` as a child process; returns it, its standard input (closing it ends the lease) and a
    /// reader of its standard output.
    static func startHolder(_ h: ReaderHarness) throws -> (Process, Pipe, OutputReader) {
        let holder = Process()
        let input = Pipe()
        let output = Pipe()
        holder.executableURL = URL(fileURLWithPath: Tool.docsyncBinary)
        holder.arguments = ["lease", "A", "--config", h.configPath]
        holder.standardInput = input
        holder.standardOutput = output
        holder.standardError = FileHandle.nullDevice
        try holder.run()
        return (holder, input, OutputReader(output))
    }

    /// `docsync lease A` in a child process holds v1; SIGKILL ends it without any cleanup of its own, and the
    /// kernel's dropping of the flock is what lets the next prune delete v1.
    @Test func aKilledHolderProcessReleasesItsLease() async throws {
        let h = try ReaderHarness()
        defer { h.remove() }
        let v1 = try await h.install("A", version: "1")
        let (holder, input, reader) = try Self.startHolder(h)
        defer { if holder.isRunning { kill(holder.processIdentifier, SIGKILL) } }
        #expect(reader.read(timeout: 30) { $0.contains("\n") }, "the holder printed its lease: \(reader.text)")
        let line = try #require(reader.text.split(separator: "\n").first)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(json["path"] as? String == v1.path && json["name"] as? String == "A")
        #expect(json["documents"] as? String == v1.path + "/Contents/Resources/Documents")

        try await h.install("A", version: "2")
        try await h.prune()
        #expect(h.versions.count == 2, "the child's lease keeps v1: \(h.versions)")

        kill(holder.processIdentifier, SIGKILL)
        holder.waitUntilExit()
        #expect(holder.terminationReason == .uncaughtSignal)
        try await h.prune()
        #expect(h.versions.count == 1, "the kernel dropped the dead holder's lock: \(h.versions)")
        #expect(!FileManager.default.fileExists(atPath: v1.path))
        withExtendedLifetime(input) {}
    }

    /// Closing the holder's standard input ends `docsync lease` normally (status 0), releasing the lease.
    @Test func theLeaseCommandEndsWithItsInput() async throws {
        let h = try ReaderHarness()
        defer { h.remove() }
        try await h.install("A", version: "1")
        let (holder, input, reader) = try Self.startHolder(h)
        defer { if holder.isRunning { kill(holder.processIdentifier, SIGKILL) } }
        #expect(reader.read(timeout: 30) { $0.contains("\n") })
        try input.fileHandleForWriting.close()
        holder.waitUntilExit()
        #expect(holder.terminationStatus == 0)
    }
}
