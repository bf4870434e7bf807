import DocSyncSupport
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `ChildProcess`: exit status and standard error kept, and a deadline that stops the whole process group.
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct ChildProcessTests {
    static func shell(_ script: String) -> ChildProcess {
        ChildProcess(path: "/bin/sh", arguments: ["-c", script], environment: ["PATH": "/usr/bin:/bin"])
    }

    @Test func anExitStatusAndTheEndOfStandardErrorAreReported() {
        let result = Self.shell("echo one >&2; echo two >&2; exit 7").run(timeout: .seconds(60))
        #expect(result.ending == .exited(7))
        #expect(String(decoding: result.standardErrorTail, as: UTF8.self) == "one\ntwo\n")
        #expect(Self.shell("true").run(timeout: .seconds(60)).ending == .exited(0))
    }

    @Test func aMissingProgramIsNotStarted() {
        let child = ChildProcess(path: "/nonexistent/sh", arguments: [], environment: [:])
        #expect(child.run(timeout: .seconds(60)).ending == .notStarted(ENOENT))
    }

    /// The command and a child it left running in the background (which ignores SIGTERM) are both gone after
    /// the deadline: SIGTERM to the group, then SIGKILL.
    @Test func aDeadlineStopsTheWholeProcessGroup() throws {
        let dir = try TemporaryDirectory("child")
        defer { dir.remove() }
        let pidFile = dir.appending("pid")
        var child = Self.shell(
            "sh -c 'trap \"\" TERM; while :; do sleep 1; done' & echo $! > \(pidFile); echo waiting >&2; wait")
        child.killGrace = .seconds(1)
        let started = ContinuousClock.now
        let result = child.run(timeout: .milliseconds(500))
        #expect(result.ending == .timedOut)
        #expect(ContinuousClock.now - started < .seconds(30))
        #expect(String(decoding: result.standardErrorTail, as: UTF8.self).contains("waiting"))
        let pid = try #require(Int32(try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(
            in: .whitespacesAndNewlines)))
        try? Poll.until("the background child \(pid) to die", timeout: 20) { !Self.isAlive(pid) }
        #expect(!Self.isAlive(pid), "the background child \(pid) was killed with its group")
    }

    /// Running (not a zombie waiting to be reaped by whoever adopted it).
    static func isAlive(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return false }
        guard let close = stat.lastIndex(of: ")") else { return false }
        return !stat[stat.index(close, offsetBy: 2)...].hasPrefix("Z")
    }
}
