import Foundation
import TestSupport
import Testing

@testable import DocSyncInstall

#if canImport(Glibc)
    import Glibc
#endif

/// `EarlyWriteback` at the end of an extraction: `finish()` returns at once, starts one last pass when anything was
/// written since the last one, and the thread ends after it; `stop()` starts nothing more and waits.
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct EarlyWritebackTests {
    /// Writes `bytes` into a new file of `dir` (dirty pages for a pass to write back).
    static func dirty(_ dir: TemporaryDirectory, _ name: String, bytes: Int) throws {
        try Data(repeating: 0x61, count: bytes).write(to: URL(fileURLWithPath: dir.appending(name)))
    }

    /// Runs `body` with a new temporary directory and a descriptor of it, both removed afterwards.
    static func withDirectory(_ body: (TemporaryDirectory, Int32) throws -> Void) throws {
        let dir = try TemporaryDirectory("writeback")
        defer { dir.remove() }
        let fd = open(dir.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        try #require(fd >= 0)
        defer { close(fd) }
        try body(dir, fd)
    }

    @Test func finishStartsALastPassWithoutWaitingAndTheThreadEnds() throws {
        try Self.withDirectory { dir, fd in
            weak var observed: EarlyWriteback?
            do {
                let writeback = EarlyWriteback(directoryFD: fd)
                observed = writeback
                try Self.dirty(dir, "a", bytes: 1 << 20)
                writeback.wrote(1 << 20)  // below the step: no pass yet
                #expect(writeback.passes == 0)
                writeback.finish()
                try Poll.until("the last pass after finish()") { writeback.passes == 1 }
            }
            try Poll.until("the writeback thread to end after its last pass") { observed == nil }
        }
    }

    @Test func finishWithNothingWrittenEndsWithoutAPass() throws {
        try Self.withDirectory { dir, fd in
            weak var observed: EarlyWriteback?
            var passes = -1
            do {
                let writeback = EarlyWriteback(directoryFD: fd)
                observed = writeback
                writeback.finish()
                writeback.stop()  // returns once the thread has left its loop
                passes = writeback.passes
            }
            #expect(passes == 0)
            try Poll.until("the writeback thread to end") { observed == nil }
        }
    }

    @Test func aStepOfDataStartsAPassAndStopWaitsForIt() throws {
        try Self.withDirectory { dir, fd in
            let writeback = EarlyWriteback(directoryFD: fd)
            try Self.dirty(dir, "b", bytes: 1 << 20)
            writeback.wrote(Int(EarlyWriteback.stepBytes))
            try Poll.until("a pass after a step of data") { writeback.passes == 1 }
            writeback.stop()
            #expect(writeback.passes == 1)
        }
    }
}
