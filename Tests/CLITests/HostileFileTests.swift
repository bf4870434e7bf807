import DocSync
import DocSyncConfigFile
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A FIFO, or a link to `/dev/zero`, where docsync reads a file it did not write (a docset folder's
/// `meta.json`, `Info.plist`, icons and index; the configuration file) hangs no command: each finishes well within
/// its deadline and names what it refused. The feed is a local file and A is installed in process from a
/// `MemoryOrigin`, so the commands under test (the binary) ask no server.
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct HostileFileTests {
    static let deadline = 30.0

    /// A harness with A 1 installed by sync, and two folders docsync did not create beside it.
    static func plantedHarness() async throws -> SyncHarness {
        let h = try SyncHarness.inMemory()
        try h.publishArchive(DocsetFixture.make(version: "1"), as: "A-1.tgz", folder: "A")
        try h.writeAtomFeed(
            "f.atom", [.init(identifier: "org.a", title: "A", version: "1", archive: h.url("A-1.tgz"))])
        try h.writeConfig(feeds: ["\(h.www)/f.atom"])
        let first = try await h.sync()
        #expect(first.status == 0, "\(first.lines)")
        // Fifo.docset: meta.json, Info.plist, the index and an icon are FIFOs. Zero.docset: each is a link to
        // /dev/zero.
        for folder in ["Fifo", "Zero"] {
            try DocsetFixture.make(version: "1").writeTree(to: "\(h.root)/\(folder).docset")
            for file in ["meta.json", "icon.png", "Contents/Info.plist", "Contents/Resources/docSet.dsidx"] {
                let path = "\(h.root)/\(folder).docset/\(file)"
                unlink(path)
                if folder == "Fifo" {
                    #expect(mkfifo(path, 0o644) == 0)
                } else {
                    try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "/dev/zero")
                }
            }
        }
        return h
    }

    @Test(arguments: [
        ["status"], ["status", "--json"], ["sync"], ["sync", "--json"], ["verify"], ["lock"], ["adopt", "--dry-run"],
        ["search", "sym"],
    ])
    func noCommandHangsOnAFIFOOrADeviceLink(_ arguments: [String]) async throws {
        let h = try await Self.plantedHarness()
        let run = try BoundedRun.run(h, arguments, deadline: Self.deadline)
        #expect(!run.killed, "docsync \(arguments) hung (killed after \(run.seconds) s): \(run.standardError)")
        #expect(run.status != 132 && run.status != 134 && run.status != 137, "\(run.status): \(run.standardError)")
        if arguments.first == "status" {
            #expect(run.standardOutput.contains("A"), "\(run.standardOutput)")
        }
    }

    @Test func aConfigurationFileThatIsAFIFOIsRefusedAtOnce() throws {
        let dir = try TemporaryDirectory("fifo-config")
        defer { dir.remove() }
        let fifo = dir.appending("docsync.toml")
        #expect(mkfifo(fifo, 0o644) == 0)
        let zero = dir.appending("zero.toml")
        try FileManager.default.createSymbolicLink(atPath: zero, withDestinationPath: "/dev/zero")
        for config in [fifo, zero] {
            let process = try DocSyncProcess(["status", "--config", config])
            try? Poll.until("status --config \(config) to exit", timeout: Self.deadline) { !process.process.isRunning }
            let hung = process.process.isRunning
            if hung { process.kill() }
            let result = process.finish()
            #expect(!hung, "status --config \(config) hung")
            #expect(result.status != 0)
            #expect(result.standardError.contains("not a regular file"), "\(result.standardError)")
        }
    }

    @Test func aCAFileThatIsAFIFOIsNamedAsTheKeyAtFault() throws {
        let dir = try TemporaryDirectory("fifo-ca")
        defer { dir.remove() }
        #expect(mkfifo(dir.appending("ca.pem"), 0o644) == 0)
        let toml = "root = \"root\"\n[network]\nca_file = \"ca.pem\"\n"
        #expect(throws: DocSyncConfigurationError.self) {
            try DocSyncConfigurationLoader().parse(toml, file: dir.appending("docsync.toml"), relativeTo: dir.path)
        }
        do {
            _ = try DocSyncConfigurationLoader().parse(toml, file: dir.appending("docsync.toml"), relativeTo: dir.path)
        } catch {
            #expect(error.description.contains("ca_file") && error.description.contains("not a regular file"))
        }
    }
}
