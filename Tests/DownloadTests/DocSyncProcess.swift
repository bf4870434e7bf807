import Foundation
import TestSupport

/// The `docsync` executable built beside the test bundle, run as a child process.
struct DocSyncProcess {
    static var executable: String {
        let me =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var directory = URL(fileURLWithPath: me).deletingLastPathComponent()
        // The bundle may be a directory (…/docsyncPackageTests.xctest/…) on some toolchains.
        while directory.path != "/", !FileManager.default.isExecutableFile(atPath: directory.path + "/docsync") {
            directory.deleteLastPathComponent()
        }
        return directory.path + "/docsync"
    }

    let process = Process()
    private let output = Pipe()
    private let errors = Pipe()

    /// Starts `docsync fetch` with `arguments`.
    init(fetch arguments: [String], environment: [String: String]? = nil) throws {
        process.executableURL = URL(fileURLWithPath: Self.executable)
        process.arguments = ["fetch"] + arguments
        if let environment { process.environment = environment }
        process.standardOutput = output
        process.standardError = errors
        try process.run()
    }

    func kill() {
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Waits for the exit; returns the status, standard output and standard error.
    func finish() -> (status: Int32, stdout: String, stderr: String) {
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }

    /// Runs to completion.
    static func run(_ arguments: [String], environment: [String: String]? = nil) throws
        -> (status: Int32, stdout: String, stderr: String)
    {
        try DocSyncProcess(fetch: arguments, environment: environment).finish()
    }
}
