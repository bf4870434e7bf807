import Foundation

/// A `docsync` run that cannot hang a test: output goes to files, the process is killed (SIGKILL) when it outlives
/// `deadline` seconds, and the result says how long it took.
package struct BoundedRun {
    package let status: Int32
    package let standardOutput: String
    package let standardError: String
    package let seconds: Double
    package let killed: Bool

    package static func run(_ h: SyncHarness, _ arguments: [String], deadline: Double) throws -> BoundedRun {
        let out = h.dir.appending("run-\(UUID().uuidString).out")
        let err = out + ".err"
        _ = FileManager.default.createFile(atPath: out, contents: nil)
        _ = FileManager.default.createFile(atPath: err, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Tool.docsyncBinary)
        process.arguments = arguments + ["--config", h.configPath]
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: out))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: err))
        let started = Date()
        try process.run()
        var killed = false
        while process.isRunning {
            if Date().timeIntervalSince(started) > deadline {
                kill(process.processIdentifier, SIGKILL)
                killed = true
                break
            }
            usleep(50_000)
        }
        let status = process.waitForExit()
        return BoundedRun(
            status: status, standardOutput: (try? String(contentsOfFile: out, encoding: .utf8)) ?? "",
            standardError: (try? String(contentsOfFile: err, encoding: .utf8)) ?? "",
            seconds: Date().timeIntervalSince(started), killed: killed)
    }

    package var events: [[String: Any]] {
        standardOutput.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    /// The failure message (or, for `skipped`, the reason) of the first event of `kind` (e.g. `failed`,
    /// `feed-failed`).
    package func reason(_ kind: String) -> String? {
        let event = events.first { $0["event"] as? String == kind }
        return (event?["failure"] as? [String: Any])?["message"] as? String ?? event?["reason"] as? String
    }
}
