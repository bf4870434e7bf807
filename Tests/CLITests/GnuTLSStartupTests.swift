import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// GnuTLS, which Debian's libcurl loads through librtmp and libldap and docsync never uses, stays mapped but
/// uninitialised in a running `docsync` (CDocSyncStartup's `_gnutls_global_init_skip`, #39). The reference is
/// curl, the same libcurl with GnuTLS's default: its constructor initialises the library, which makes ~770 KiB more
/// of it resident.
@Suite(
    .enabled(if: DebianCurl.loadsGnuTLS, "libcurl does not load libgnutls here: nothing to skip"),
    .timeLimit(.minutes(10)), .blockingWaits)
struct GnuTLSStartupTests {
    @Test func aRunningFetchMapsGnuTLSWithoutInitialisingIt() throws {
        let listener = try LoopbackListener()  // never answers: both processes stay in their transfer
        let url = "http://127.0.0.1:\(listener.port)/file.bin"
        let dir = try TemporaryDirectory("gnutls-startup")
        defer { dir.remove() }

        let curl = Process()
        curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        curl.arguments = ["-s", "-o", dir.appending("curl.bin"), url]
        curl.environment = Tool.environment()
        curl.standardOutput = FileHandle.nullDevice
        curl.standardError = FileHandle.nullDevice
        try curl.run()
        defer {
            kill(curl.processIdentifier, SIGKILL)
            curl.waitUntilExit()
        }
        let docsync = try DocSyncProcess(
            ["fetch", url, "--output", dir.appending("out/file.bin")],
            environment: Tool.environment(["HOME": dir.path, "XDG_CONFIG_HOME": dir.appending("none")]),
            discardOutput: true)
        defer { docsync.kill() }

        // Connected: every library constructor ran long before.
        for pid in [curl.processIdentifier, docsync.process.processIdentifier] {
            try Poll.until("process \(pid) connected to the listener", timeout: 30) {
                Self.isConnected(pid, to: listener.port)
            }
        }
        let curlResident = Self.residentKiB(of: "libgnutls", in: curl.processIdentifier)
        let docsyncResident = Self.residentKiB(of: "libgnutls", in: docsync.process.processIdentifier)
        #expect(docsyncResident > 0, "libgnutls is mapped in docsync (through libcurl)")
        // Initialised: 1,128 KiB resident here, against 360 KiB mapped only (Debian 12, GnuTLS 3.7.9).
        #expect(
            docsyncResident + 384 < curlResident,
            "GnuTLS resident: docsync \(docsyncResident) KiB, curl \(curlResident) KiB (initialised)")
    }

    /// The resident KiB of every mapping whose file name contains `library`.
    static func residentKiB(of library: String, in pid: Int32) -> Int {
        let smaps = procText("/proc/\(pid)/smaps")
        var inLibrary = false
        var total = 0
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if let first = fields.first, first.contains("-"), first.allSatisfy({ $0.isHexDigit || $0 == "-" }) {
                inLibrary = fields.count >= 6 && fields[5].contains(library)
            } else if inLibrary, fields.first == "Rss:", fields.count >= 2, let kib = Int(fields[1]) {
                total += kib
            }
        }
        return total
    }

    /// A /proc file's text, read to its end (its size is 0 to stat, which `String(contentsOfFile:)` trusts).
    static func procText(_ path: String) -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else { return "" }
        defer { try? handle.close() }
        return String(decoding: (try? handle.readToEnd()) ?? Data(), as: UTF8.self)
    }

    /// Whether `pid` holds a TCP socket connected to 127.0.0.1:`port` (its socket inodes in /proc/net/tcp).
    static func isConnected(_ pid: Int32, to port: Int) -> Bool {
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
        let inodes = Set(
            fds.compactMap { fd -> Substring? in
                guard let link = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(fd)"),
                    link.hasPrefix("socket:[")
                else { return nil }
                return Substring(link.dropFirst(8).dropLast())
            })
        let table = procText("/proc/net/tcp")
        let remote = "0100007F:" + String(format: "%04X", port)
        return table.split(separator: "\n").dropFirst().contains { line in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            return fields.count > 9 && fields[2] == remote && inodes.contains(fields[9])
        }
    }
}

enum DebianCurl {
    /// Debian's curl maps libgnutls (libcurl's librtmp and libldap link it).
    static let loadsGnuTLS: Bool = {
        guard let result = try? Tool.run("/usr/bin/ldd", ["/usr/bin/curl"]) else { return false }
        return result.status == 0 && result.standardOutput.contains("libgnutls")
    }()
}
