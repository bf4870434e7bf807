import Foundation
import TestSupport
import Testing

/// `docsync fetch --output` into folders that do not exist yet: they are created, as `install --root` does.
@Suite(
    .enabled(if: Nginx.isInstalled, "nginx is not installed (scripts/bootstrap installs it)"),
    .timeLimit(.minutes(10)), .blockingWaits)
struct FetchFoldersTests {
    @Test func fetchCreatesMissingOutputAndStagingFolders() throws {
        let dir = try TemporaryDirectory("fetch-folders")
        defer { dir.remove() }
        try FileManager.default.createDirectory(atPath: dir.appending("www"), withIntermediateDirectories: true)
        try Data(repeating: 7, count: 10_000).write(to: URL(fileURLWithPath: dir.appending("www/file.bin")))
        let nginx = try Nginx(root: dir.appending("www"))
        defer { nginx.stop() }
        let output = dir.appending("new/deeper/file.bin")
        let staging = dir.appending("stage/parent/staging")
        let run = try Tool.run(
            Tool.docsyncBinary, ["fetch", nginx.url("file.bin"), "--output", output, "--staging", staging])
        #expect(run.status == 0, "\(run.standardError)")
        #expect((try? Data(contentsOf: URL(fileURLWithPath: output)))?.count == 10_000)
        #expect(FileManager.default.fileExists(atPath: staging))
    }
}
