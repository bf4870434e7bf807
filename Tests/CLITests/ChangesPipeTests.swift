import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `docsync changes` writes megabytes at once (22.8 MB of JSON for 100k changes): it grows its standard output's
/// pipe to 1 MiB so that it rarely waits for a reader draining it in small reads (changes-bench).
@Suite(.timeLimit(.minutes(10)), .blockingWaits)
struct ChangesPipeTests {
    @Test func changesGrowsItsOutputPipeAndLeavesOtherCommandsAlone() throws {
        let dir = try TemporaryDirectory("changes-pipe")
        defer { dir.remove() }
        try FileManager.default.createDirectory(atPath: dir.appending("root"), withIntermediateDirectories: true)
        let environment = Tool.environment(["HOME": dir.path, "XDG_CONFIG_HOME": dir.appending("none")])
        #expect(try Self.pipeSize(after: ["--version"], environment: environment) == 1 << 16)
        #expect(
            try Self.pipeSize(after: ["changes", "--root", dir.appending("root"), "--json"], environment: environment)
                == 1 << 20)
    }

    /// The size of the pipe `docsync arguments` wrote to, once it exited (F_GETPIPE_SZ on the reading end).
    static func pipeSize(after arguments: [String], environment: [String: String]) throws -> Int32 {
        let pipe = Pipe()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Tool.docsyncBinary)
        process.arguments = arguments
        process.environment = environment
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        _ = pipe.fileHandleForReading.readDataToEndOfFile()
        #expect(process.waitForExit() == 0, "docsync \(arguments)")
        let getPipeSize: Int32 = 1032  // F_GETPIPE_SZ
        return fcntl(pipe.fileHandleForReading.fileDescriptor, getPipeSize)
    }
}
