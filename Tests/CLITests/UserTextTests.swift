import DocSync
import DocSyncDownload
import DocSyncCLI
import Foundation
import TestSupport
import Testing

/// Errors become user text in one place: no Foundation dump, no doubled segment; every exit status is documented.
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct UserTextTests {
    @Test(arguments: [
        (CocoaError(.fileWriteVolumeReadOnly, userInfo: [NSFilePathErrorKey: "/srv/staging"]) as any Error,
         "/srv/staging: Read-only file system"),
        (CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: "/srv/x"]), "/srv/x: Permission denied"),
        (NSError(domain: NSPOSIXErrorDomain, code: Int(ENOSPC), userInfo: [NSFilePathErrorKey: "/d"]),
         "/d: No space left on device"),
        (DownloadError(.http, url: "http://h/a.tgz", status: 404, reason: "HTTP 404", isTransient: false),
         "http://h/a.tgz: HTTP 404"),
    ])
    func errorsReadAsOneCleanLine(error: any Error, expected: String) {
        let text = UserText.describe(error)
        #expect(text == expected)
        #expect(!text.contains("Error Domain") && !text.contains("NSCocoaErrorDomain"))
    }

    @Test func repeatedSegmentsAreDropped() {
        #expect(UserText.removingRepeatedSegments("u: HTTP 404: HTTP 404") == "u: HTTP 404")
        #expect(UserText.removingRepeatedSegments("http://a/f.xml: http://a/f.xml: refused") == "http://a/f.xml: refused")
        #expect(UserText.removingRepeatedSegments("a: b: a") == "a: b: a")
    }

    @Test func helpPrintsTheExitStatusTableAndREADMEHasIt() throws {
        let help = try Tool.run(Tool.docsyncBinary, ["help"])
        for code in ["0", "3", "64", "65", "69", "70", "74", "75", "78", "130"] {
            #expect(help.standardOutput.contains("\n  \(code) "), "docsync help lists exit status \(code)")
        }
        let readme = try String(
            contentsOfFile: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
                "../../README.md"
            ).path, encoding: .utf8)
        for line in ExitStatus.table.split(separator: "\n").dropFirst() {
            let parts = line.split(separator: " ", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(readme.contains("| \(parts[0]) | \(parts[1]) |"), "README's exit-status table has \(parts[0])")
        }
    }
}
