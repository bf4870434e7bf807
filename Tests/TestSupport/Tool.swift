import Foundation

/// A tool a fixture runs (sqlite3, tar, a peak-memory probe) failed: the command and its standard error.
package struct ToolFailure: Error, CustomStringConvertible {
    package let command: String
    package let output: String
    package var description: String { "\(command) failed: \(output)" }
}

/// Runs a command-line tool and collects its output.
package enum Tool {
    package struct Result: Sendable {
        package let status: Int32
        package let standardOutput: String
        package let standardError: String
    }

    /// Runs `executable`; `environment` replaces the test process's environment when given.
    package static func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) throws
        -> Result
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let (outData, errData) = PipeDrain.readBoth(out, err)
        let status = process.waitForExit()
        return Result(
            status: status, standardOutput: String(decoding: outData, as: UTF8.self),
            standardError: String(decoding: errData, as: UTF8.self))
    }

    /// The test process's environment without proxy and CA-bundle variables (so a developer's settings never
    /// reach a test), plus `extra`.
    package static func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        for name in environment.keys where name.lowercased().hasSuffix("_proxy") || name == "CURL_CA_BUNDLE" {
            environment[name] = nil
        }
        return environment.merging(extra) { $1 }
    }

    /// The `docsync` executable built beside the test bundle (`.build/<config>/docsync`): the one place tests find
    /// it. The bundle may be a directory (`…/docsyncPackageTests.xctest/…`) on some toolchains, so the search walks
    /// up from the test process's executable.
    package static var docsyncBinary: String {
        let me =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var directory = URL(fileURLWithPath: me).deletingLastPathComponent()
        while directory.path != "/", !FileManager.default.isExecutableFile(atPath: directory.path + "/docsync") {
            directory.deleteLastPathComponent()
        }
        return directory.path + "/docsync"
    }
}
