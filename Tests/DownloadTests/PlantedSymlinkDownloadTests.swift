import DocSyncDownload
import DocSyncSupport
import Foundation
import TestSupport
import Testing

/// A symlink planted where the downloader expects its own staging file or folder is refused, naming the
/// path, and nothing is written through it.
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct PlantedSymlinkDownloadTests {
    /// A victim file outside staging, and a server that answers with the fixture's bytes.
    private func setUp(_ f: DownloadFixture) throws -> (victim: String, server: FaultServer) {
        let victim = f.directory.appending("victim.txt")
        try Data("precious\n".utf8).write(to: URL(fileURLWithPath: victim))
        try FileManager.default.createDirectory(atPath: f.stagingDirectory, withIntermediateDirectories: true)
        let content = f.content
        let server = try FaultServer { request, _ in FaultResponse.serve(content, to: request) }
        return (victim, server)
    }

    @Test(arguments: ["part", "journal.tmp", "journal", "lock"])
    func aPlantedStagingFileLinkIsRefused(_ suffix: String) async throws {
        let f = try DownloadFixture(size: 1 << 20)
        defer { f.remove() }
        let (victim, server) = try setUp(f)
        defer { server.stop() }
        let planted = f.stagingPath("docset/1.0", suffix)
        try FileManager.default.createSymbolicLink(atPath: planted, withDestinationPath: victim)
        do {
            _ = try await f.download([server.url()], sha256: f.sha256)
            Issue.record("downloaded through a planted \(suffix) link")
        } catch {
            #expect("\(error)".contains(planted), "the error names the link: \(error)")
            #expect("\(error)".contains("symlink"), "\(error)")
        }
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious\n")
        #expect(!f.outputExists)
    }

    @Test func aPlantedCompleteFolderLinkIsRefused() async throws {
        let f = try DownloadFixture(size: 1 << 20)
        defer { f.remove() }
        let (_, server) = try setUp(f)
        defer { server.stop() }
        let elsewhere = f.directory.appending("elsewhere")
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: "\(f.stagingDirectory)/complete", withDestinationPath: elsewhere)
        var request = f.request([server.url()], sha256: f.sha256)
        request.destination = "\(f.stagingDirectory)/complete/x.archive"
        await #expect(throws: DownloadError.self) {
            try await Downloader(configuration: f.configuration()).download(request)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere).isEmpty, "nothing created there")
    }

    @Test func fetchRefusesAPlantedDefaultStagingFolderLink() throws {
        let f = try DownloadFixture(size: 1 << 20)
        defer { f.remove() }
        let (_, server) = try setUp(f)
        defer { server.stop() }
        let elsewhere = f.directory.appending("elsewhere")
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        let link = f.directory.appending(".docsync-staging")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: elsewhere)
        let result = try Tool.run(Tool.docsyncBinary, ["fetch", server.url(), "-o", f.destination])
        #expect(result.status == 74, "\(result.standardError)")
        #expect(result.standardError.contains(link), "\(result.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere).isEmpty)
        #expect(!f.outputExists)
    }

    @Test func refusedResponsesLeaveNoStagingFiles() async throws {
        let f = try DownloadFixture(size: 1024)
        defer { f.remove() }
        let server = try FaultServer { _, _ in FaultResponse(status: 404, reason: "Not Found") }
        defer { server.stop() }
        let downloader = Downloader(configuration: f.configuration(maxAttempts: 1))
        for index in 0..<100 {
            var request = f.request([server.url("missing-\(index).tgz")], key: "docset-\(index)/1.0")
            request.destination = "\(f.stagingDirectory)/complete/\(index).archive"
            await #expect(throws: DownloadError.self) { try await downloader.download(request) }
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: f.stagingDirectory)
        #expect(left.isEmpty, "404s left \(left.count) files: \(left.prefix(5))")
    }
}
