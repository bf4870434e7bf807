import Foundation

/// Runs a command in a process of its own and reports its peak resident memory as the kernel counted it
/// (`ru_maxrss`): a memory goal measured this way cannot be disturbed by tests running in parallel in the test
/// process, as a VmHWM reading of the test process itself can.
///
/// A small Python parent spawns the command and reads `RUSAGE_CHILDREN`. Spawning it from the test process instead
/// would report the test process's own size: at `exec` Linux carries the replaced memory map's high-water mark
/// (the parent's, for a vfork/posix_spawn child) into the new program's `ru_maxrss`. Python's is a few MiB, below
/// any program measured here.
package enum PeakMemory {
    package struct Result: Sendable {
        /// Exit status, or 128 + the signal that ended it.
        package let status: Int32
        package let peakResidentBytes: Int
        package let standardError: String
    }

    static let parent = """
        import resource, subprocess, sys
        with open(sys.argv[1], "wb") as out:
            code = subprocess.run(sys.argv[2:], stdout=out).returncode
        print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
        sys.exit(code if code >= 0 else 128 - code)
        """

    /// Runs `executable` with standard output going to the file `standardOutput`.
    package static func run(
        _ executable: String, _ arguments: [String], standardOutput: String = "/dev/null"
    ) throws -> Result {
        let result = try Tool.run("/usr/bin/python3", ["-c", parent, standardOutput, executable] + arguments)
        let kilobytes = Int(result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))
        guard let kilobytes else {
            throw ToolFailure(command: "\(executable) (peak memory)", output: result.standardError)
        }
        return Result(status: result.status, peakResidentBytes: kilobytes * 1024, standardError: result.standardError)
    }
}
