import DocSyncHTTP
import Foundation
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Transfers run on threads kept for the next transfer (a thread started and ended per request was a tenth of a
/// no-op sync's CPU at 1,000 feeds), and never wait for one another: every transfer in flight has a thread (real
/// nginx on loopback).
@Suite(
    .enabled(if: Nginx.isInstalled, "nginx is not installed (scripts/bootstrap installs it)"),
    .timeLimit(.minutes(10)), .blockingWaits)
struct TransferThreadTests {
    /// Records the thread its response arrived on; with `together`, waits (bounded) in `head` until that many
    /// transfers have their heads, so they are all in flight at once.
    final class Probe: HTTPResponseReceiver, @unchecked Sendable {
        let together: Gate?
        var thread: Int32 = 0
        var status = 0
        var waited: String?

        init(together: Gate? = nil) { self.together = together }

        func head(_ head: HTTPResponseHead) {
            status = head.status
            thread = Self.kernelThreadID()
            guard let together else { return }
            together.arrived.add(1, ordering: .relaxed)
            do {
                try Poll.until("\(together.count) transfers in flight at once", timeout: 30) {
                    together.arrived.load(ordering: .relaxed) >= together.count
                }
            } catch {
                waited = "\(error)"
            }
        }

        func body(_ chunk: UnsafeRawBufferPointer) -> Bool { true }

        /// The calling thread's kernel id (`/proc/thread-self` is `PID/task/TID`): not reused soon after a thread
        /// ends, unlike a `pthread_t`.
        static func kernelThreadID() -> Int32 {
            var buffer = [CChar](repeating: 0, count: 64)
            let n = readlink("/proc/thread-self", &buffer, 63)
            guard n > 0 else { return -1 }
            let text = String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return Int32(text.split(separator: "/").last ?? "") ?? -1
        }
    }

    /// How many transfers have their heads, and how many must.
    final class Gate: Sendable {
        let arrived = Atomic<Int>(0)
        let count: Int
        init(count: Int) { self.count = count }
    }

    static func server() throws -> (Nginx, TemporaryDirectory) {
        let directory = try TemporaryDirectory("threads")
        let root = directory.appending("www")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try Data(repeating: 7, count: 1000).write(to: URL(fileURLWithPath: root + "/a.xml"))
        return (try Nginx(root: root), directory)
    }

    @Test func sequentialTransfersReuseThreads() async throws {
        let (nginx, directory) = try Self.server()
        defer {
            nginx.stop()
            directory.remove()
        }
        var threads: [Int32] = []
        for _ in 0..<20 {
            let probe = Probe()
            let result = await Curl.perform(HTTPRequest(url: nginx.url("a.xml")), receiver: probe)
            #expect(result.ending == .complete && probe.status == 200, "\(result)")
            threads.append(probe.thread)
        }
        // The threads are kept: each transfer's thread is still alive, named for the pool, after all 20 ended (a
        // thread started per transfer has ended by then). Which kept thread a transfer gets depends on the other
        // suites' transfers in this process, so their number is not asserted.
        let gone = Set(threads).filter { Self.threadName($0) != "docsync-curl" }
        #expect(gone.isEmpty, "threads of 20 sequential transfers: \(threads); ended or not the pool's: \(gone)")
    }

    /// The name of this process's thread `id` (`/proc/self/task/ID/comm`), nil when it has ended.
    static func threadName(_ id: Int32) -> String? {
        guard let text = try? String(contentsOfFile: "/proc/self/task/\(id)/comm", encoding: .utf8) else { return nil }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func everyTransferInFlightHasAThread() async throws {
        let (nginx, directory) = try Self.server()
        defer {
            nginx.stop()
            directory.remove()
        }
        let count = 12
        let gate = Gate(count: count)
        let probes = (0..<count).map { _ in Probe(together: gate) }
        let results = await withTaskGroup(of: HTTPTransferResult.self) { group in
            for probe in probes {
                group.addTask { await Curl.perform(HTTPRequest(url: nginx.url("a.xml")), receiver: probe) }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.allSatisfy { $0.ending == .complete }, "\(results)")
        #expect(probes.allSatisfy { $0.waited == nil }, "\(probes.compactMap(\.waited).first ?? "")")
        #expect(Set(probes.map(\.thread)).count == count)
    }
}
