import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// The two cheap attacks that once took `docsync serve` off the air, against the real `docsync-serve` process: 600
/// connections trickling their request heads a byte every 2 s, then 3,000 more that connect and say nothing, all
/// held open (the server's deadlines set long, so the attack stays in force). Meanwhile another client's plain
/// request is answered within a second and the server stays under 256 MiB resident. The attackers are a Python
/// process of their own (its descriptors are not the test process's), counts lowered to fit its open-file limit.
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct SiegeTests {
    @Test func tricklingAndIdleConnectionsLeaveTheServerReachable() async throws {
        let dir = try TemporaryDirectory("serve-siege")
        defer { dir.remove() }
        let config = try ServeExecutableTests.configure(
            dir, extra: "idle_timeout = \"120s\"\nheader_timeout = \"120s\"\naccess_log = \"\"\n")
        let docsync = try DocSyncProcess(["serve", "--config", config])
        let pid = docsync.process.processIdentifier
        defer { if docsync.process.isRunning { docsync.kill() } }
        let port = try ServeExecutableTests.listeningPort(OutputReader(docsync.errors!))
        let script = dir.appending("siege.py")
        try Self.siege.write(toFile: script, atomically: true, encoding: .utf8)
        let result = try Tool.run("/usr/bin/python3", [script, "\(port)", "\(pid)", "600", "3000"])
        #expect(result.status == 0, "siege failed: \(result.standardError.suffix(2000))")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any],
            "\(result.standardOutput) \(result.standardError.suffix(2000))")
        print("SiegeTests: \(result.standardOutput)")
        let trickling = try #require(report["trickling"] as? Int), idle = try #require(report["idle"] as? Int)
        let held = try #require(report["held"] as? Int)
        #expect(trickling >= 100 && idle >= 500, "too few descriptors for a siege: \(report)")
        #expect(held >= (trickling + idle) * 9 / 10, "the attack was not held open: \(report)")
        let probes = try #require(report["probes"] as? [[Any]])
        #expect(probes.count >= 4 && probes.allSatisfy { $0[1] as? String == "200" }, "\(probes)")
        let seconds = probes.compactMap { $0[0] as? Double }.sorted()
        #expect(seconds[seconds.count / 2] <= 1.0, "a plain request waited: \(seconds)")
        #expect(seconds.last! <= 5.0, "a plain request waited: \(seconds)")
        let rss = try #require(report["rss"] as? Int)
        #expect(rss <= 256 << 20, "server resident \(rss >> 20) MiB under siege")
        kill(pid, SIGTERM)
        _ = docsync.process.waitForExit()
    }

    /// argv: port, server pid, trickling count, idle count. Prints one JSON report: the counts connected, how many
    /// are still open at the end, the probes' [seconds, status], and the server's largest VmRSS seen.
    static let siege = #"""
        import json, resource, socket, sys, time
        port, pid, trickle_n, idle_n = map(int, sys.argv[1:5])
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if hard != resource.RLIM_INFINITY and soft < hard:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard)); soft = hard
        room = max(0, soft - 64)
        if trickle_n + idle_n > room:
            trickle_n = trickle_n * room // (trickle_n + idle_n); idle_n = room - trickle_n
            print(f"lowered to {trickle_n} trickling + {idle_n} idle for an open-file limit of {soft}", file=sys.stderr)
        def rss():
            with open(f"/proc/{pid}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"): return int(line.split()[1]) * 1024
            return 0
        def connect():
            s = socket.create_connection(("127.0.0.1", port), timeout=30)
            s.setblocking(False)
            return s
        def probe():
            start = time.monotonic()
            s = socket.create_connection(("127.0.0.1", port), timeout=10)
            s.sendall(b"GET /api/docsets HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            data = b""
            while True:
                chunk = s.recv(65536)
                if not chunk: break
                data += chunk
            s.close()
            status = data.split(b" ", 2)[1].decode() if data.count(b" ") >= 2 else "none"
            return [time.monotonic() - start, status]
        request = b"GET /api/docsets HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 200 + b"\r\n\r\n"
        trickling = [connect() for _ in range(trickle_n)]
        sent = [0] * trickle_n
        def trickle():
            for i, s in enumerate(trickling):
                if sent[i] < len(request) - 1:
                    try:
                        s.send(request[sent[i]:sent[i] + 1]); sent[i] += 1
                    except OSError:
                        pass
        trickle()
        idle = [connect() for _ in range(idle_n)]
        probes, peak = [], rss()
        for _ in range(4):
            started = time.monotonic()
            trickle()
            probes.append(probe())
            peak = max(peak, rss())
            time.sleep(max(0.0, 2.0 - (time.monotonic() - started)))
        def is_open(s):
            try:
                return s.recv(1, socket.MSG_PEEK) != b""
            except BlockingIOError:
                return True
            except OSError:
                return False
        held = sum(1 for s in trickling + idle if is_open(s))
        print(json.dumps({"trickling": trickle_n, "idle": idle_n, "held": held, "probes": probes, "rss": peak}))
        """#
}
