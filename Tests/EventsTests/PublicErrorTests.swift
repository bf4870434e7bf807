import DocSync
import DocSyncConfigFile
import Foundation
import TestSupport
import Testing

/// The public errors follow swift-service-lifecycle's pattern: a kind compared through static members (so a new
/// kind never breaks a client's `switch`), the details as properties, a description naming what is at fault.
@Suite(.timeLimit(.minutes(10))) struct PublicErrorTests {
    let loader = DocSyncConfigurationLoader(environment: ["HOME": "/home/u"])

    func error(_ text: String) -> DocSyncConfigurationError? {
        do {
            _ = try loader.parse(text, file: "/c/docsync.toml", relativeTo: "/c")
            return nil
        } catch {
            return error
        }
    }

    @Test func configurationErrorsHaveAKind() throws {
        let unknown = try #require(error("root = \"/r\"\nrot = 1\n"))
        #expect(unknown == .unknownKey && unknown != .invalidValue)
        #expect(unknown.key == "rot" && unknown.description == "/c/docsync.toml: rot: unknown key")
        #expect(try #require(error("[network]\nretries = -1\n")) == .invalidValue)
        #expect(try #require(error("[[feed]]\nname = \"x\"\n")) == .missingValue)
        #expect(try #require(error("root = \n")) == .invalidFile)
        #expect(throws: DocSyncConfigurationError.invalidFile) { try loader.load(file: "/nonexistent/docsync.toml") }
    }

    @Test func aBusyLockIsSyncErrorBusy() async throws {
        let h = try SyncHarness.inMemory()
        try h.writeAtomFeed("f.atom", [])
        try h.writeConfig(feeds: ["f.atom"])
        let engine = try h.engine()
        try FileManager.default.createDirectory(atPath: h.state, withIntermediateDirectories: true)
        let fd = open("\(h.state)/sync.lock", O_RDWR | O_CREAT, 0o644)
        defer { close(fd) }
        #expect(flock(fd, LOCK_EX) == 0)
        do {
            for try await _ in engine.sync() {}
            Issue.record("a sync ran while another process held the lock")
        } catch {
            // sync() throws one type: its kind is compared, the lock's details are a property.
            #expect(error == .busy && error != .exclusionUnavailable && "\(error.kind)" == "busy")
            let lock = try #require(error.exclusion)
            #expect(lock == .busy && lock != .unavailable)
            #expect(lock.path == "\(h.state)/sync.lock" && "\(error)".contains("another docsync sync is running"))
            #expect(!"\(error)".contains("--"), "a library message names no command-line flag: \(error)")
        }
    }

    @Test func removingWhatIsNotInstalledIsATypedFailure() async throws {
        let h = try SyncHarness.inMemory()
        try h.writeConfig(feeds: [])
        await #expect {
            try await h.engine().remove(name: "Nothing")
        } throws: { ($0 as? SyncFailure)?.code == .notInstalled }
    }
}
