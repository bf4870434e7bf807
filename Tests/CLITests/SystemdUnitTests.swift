import Foundation
import TestSupport
import Testing

/// `systemd-analyze verify` on the shipped units (a copy whose ExecStart names the freshly built binary, since
/// verify insists the executable exists). Skipped where the tool is missing (CI installs `systemd`).
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct SystemdUnitTests {
    static let analyzer = ["/usr/bin/systemd-analyze", "/bin/systemd-analyze"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    @Test(.enabled(if: analyzer != nil, "systemd-analyze is missing (scripts/bootstrap installs Debian's systemd)"))
    func unitsVerify() throws {
        let config = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../config")
            .standardized.path
        let dir = try TemporaryDirectory("units")
        defer { dir.remove() }
        let built = Tool.docsyncBinary
        try #require(FileManager.default.isExecutableFile(atPath: built), "no docsync built at \(built)")
        let service = try String(contentsOfFile: "\(config)/docsync.service", encoding: .utf8)
        #expect(service.contains("ProtectSystem=strict") && service.contains("NoNewPrivileges=yes"))
        #expect(service.contains("ReadWritePaths="))
        try service.replacingOccurrences(of: "/usr/local/bin/docsync", with: built)
            .write(toFile: dir.appending("docsync.service"), atomically: true, encoding: .utf8)
        let timer = try String(contentsOfFile: "\(config)/docsync.timer", encoding: .utf8)
        #expect(timer.contains("Persistent=true") && timer.contains("RandomizedDelaySec="))
        try timer.write(toFile: dir.appending("docsync.timer"), atomically: true, encoding: .utf8)

        let units = [dir.appending("docsync.service"), dir.appending("docsync.timer")]
        let result = try Tool.run(Self.analyzer!, ["verify"] + units)
        let output = result.standardOutput + result.standardError
        #expect(result.status == 0, "systemd-analyze verify: \(output)")
        #expect(output.isEmpty, "systemd-analyze verify printed warnings: \(output)")
    }
}
