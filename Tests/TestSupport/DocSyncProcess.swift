import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A running `docsync` (the executable built beside the test bundle, `Tool.docsyncBinary`), its output collected
/// through pipes: for tests that kill it midway or wait for it. One-shot runs use `Tool.run(Tool.docsyncBinary, …)`.
package struct DocSyncProcess {
    package let process = Process()
    /// Standard output and error (for an `OutputReader`), or nil when started with `discardOutput`.
    package let output: Pipe?
    package let errors: Pipe?

    /// Starts `docsync` with `arguments`; `environment` replaces the test process's environment when given.
    /// `discardOutput` sends standard output and error to /dev/null (for a run nobody reads, so it never blocks on
    /// a full pipe).
    package init(_ arguments: [String], environment: [String: String]? = nil, discardOutput: Bool = false) throws {
        output = discardOutput ? nil : Pipe()
        errors = discardOutput ? nil : Pipe()
        process.executableURL = URL(fileURLWithPath: Tool.docsyncBinary)
        process.arguments = arguments
        if let environment { process.environment = environment }
        process.standardOutput = output ?? FileHandle.nullDevice
        process.standardError = errors ?? FileHandle.nullDevice
        try process.run()
    }

    /// Starts `docsync fetch` with `arguments`.
    package init(fetch arguments: [String], environment: [String: String]? = nil) throws {
        try self.init(["fetch"] + arguments, environment: environment)
    }

    /// Kills the process (SIGKILL) and reaps it.
    package func kill() {
        Glibc.kill(process.processIdentifier, SIGKILL)
        _ = process.waitForExit()
    }

    /// Waits for the exit; returns the status, standard output and standard error (empty when discarded).
    package func finish() -> Tool.Result {
        let (out, err) = PipeDrain.readBoth(output, errors)
        let status = process.waitForExit()
        return Tool.Result(
            status: status, standardOutput: String(decoding: out, as: UTF8.self),
            standardError: String(decoding: err, as: UTF8.self))
    }

    /// Runs `docsync fetch` with `arguments` to completion.
    package static func fetch(_ arguments: [String], environment: [String: String]? = nil) throws -> Tool.Result {
        try DocSyncProcess(fetch: arguments, environment: environment).finish()
    }
}
