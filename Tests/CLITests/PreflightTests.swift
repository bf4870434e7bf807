import DocSync
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Before any network work, root, staging and state are created or checked; each problem names its config key and
/// path, is reported once, and exits 78.
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct PreflightTests {
    static func config(_ dir: TemporaryDirectory, root: String, staging: String, state: String) throws -> String {
        let path = dir.appending("docsync.toml")
        try """
            root = "\(root)"
            staging = "\(staging)"
            state = "\(state)"
            [[feed]]
            url = "http://127.0.0.1:9/never-asked.atom"
            """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func aRootThatIsAFileIsAConfigurationErrorNamingTheKey() throws {
        let dir = try TemporaryDirectory("preflight")
        defer { dir.remove() }
        let file = dir.appending("file")
        try "x".write(toFile: file, atomically: true, encoding: .utf8)
        let config = try Self.config(
            dir, root: file, staging: dir.appending("staging"), state: "\(file)/state")
        let run = try Tool.run(Tool.docsyncBinary, ["sync", "--config", config])
        #expect(run.status == 78, "\(run.standardError)")
        #expect(run.standardError.contains("root = \"\(file)\": not a directory"), "\(run.standardError)")
        #expect(run.standardError.contains("state = \"\(file)/state\": not a directory"), "\(run.standardError)")
        #expect(!run.standardError.contains("errno") && !run.standardError.contains("Error:"))
        #expect(run.standardError.components(separatedBy: "root = ").count == 2, "once, not per docset")
    }

    @Test func missingFoldersAndTheirParentsAreCreated() throws {
        let dir = try TemporaryDirectory("preflight")
        defer { dir.remove() }
        let config = DocSyncConfiguration(
            root: dir.appending("a/b/root"), staging: dir.appending("c/d/staging"), state: dir.appending("e/f/state"))
        try Preflight.check(config)
        for path in [config.root, config.staging, config.state] {
            var info = stat()
            #expect(stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR, "\(path)")
        }
    }

    @Test func aSymlinkInTheWayIsNotFollowedWhenCreating() throws {
        let dir = try TemporaryDirectory("preflight")
        defer { dir.remove() }
        // A dangling symlink where docsync would create `state`: mkdir refuses it, nothing is created elsewhere.
        try FileManager.default.createSymbolicLink(atPath: dir.appending("state"), withDestinationPath: "elsewhere")
        let config = DocSyncConfiguration(root: dir.appending("root"), staging: dir.appending("staging"), state: dir.appending("state"))
        #expect(throws: Preflight.Failure.self) { try Preflight.check(config) }
        #expect(!FileManager.default.fileExists(atPath: dir.appending("elsewhere")))
    }
}
