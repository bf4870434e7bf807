import Foundation

/// Runs the configured post-install command through `/bin/sh -c`, with the docset in environment variables:
/// `DOCSYNC_NAME`, `DOCSYNC_VERSION`, `DOCSYNC_IDENTIFIER`, `DOCSYNC_PATH` (the resolved version folder) and
/// `DOCSYNC_INDEX` (its `docSet.dsidx`). For indexing backends not written in Swift.
struct PostInstallHook: Sendable {
    let command: String

    /// Nil on success, else why it failed (exit status and the end of its standard error).
    func run(for docset: InstalledDocset) async -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        var environment = ProcessInfo.processInfo.environment
        environment["DOCSYNC_NAME"] = docset.name
        environment["DOCSYNC_VERSION"] = docset.version ?? ""
        environment["DOCSYNC_IDENTIFIER"] = docset.identifier ?? ""
        environment["DOCSYNC_PATH"] = docset.path
        environment["DOCSYNC_INDEX"] = docset.indexPath
        process.environment = environment
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return "cannot start /bin/sh: \(error)"
        }
        let stderrData = await Task.detached { errors.fileHandleForReading.readDataToEndOfFile() }.value
        await Task.detached { process.waitUntilExit() }.value
        guard process.terminationStatus != 0 || process.terminationReason != .exit else { return nil }
        let tail = String(decoding: stderrData.suffix(500), as: UTF8.self).trimmingCharacters(
            in: .whitespacesAndNewlines)
        return "`\(command)` exited with status \(process.terminationStatus)\(tail.isEmpty ? "" : ": \(tail)")"
    }
}
