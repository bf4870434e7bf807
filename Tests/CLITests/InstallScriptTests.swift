import DocSync
import DocSyncConfigFile
import Foundation
import TestSupport
import Testing

/// `scripts/install` into a temporary DESTDIR: the units it installs verify, the system service is hardened to
/// exposure ≤ 2.0, its config's folders lie under the unit's ReadWritePaths, and `--uninstall` reverses it.
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct InstallScriptTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..")
        .standardized.path
    static let analyzer = SystemdUnitTests.analyzer

    struct Output {
        var status: Int32
        var standardOutput: String
    }

    /// Runs a tool with extra environment variables (`Tool.run`); standard output, then standard error.
    static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws
        -> Output
    {
        let result = try Tool.run(executable, arguments, environment: Tool.environment(environment))
        return Output(status: result.status, standardOutput: result.standardOutput + result.standardError)
    }

    static func install(_ destdir: String, _ arguments: [String], home: String? = nil) throws -> Output {
        var environment = ["DESTDIR": destdir]
        if let home { environment["HOME"] = home; environment["XDG_CONFIG_HOME"] = "" }
        return try run("\(repository)/scripts/install", ["--binary", Tool.docsyncBinary] + arguments, environment: environment)
    }

    /// `systemd-analyze verify` of the installed units, with ExecStart pointed at the staged binary.
    static func verify(units: [String], binary: String, from: String, in dir: TemporaryDirectory) throws -> Output {
        var paths: [String] = []
        for unit in units {
            let text = try String(contentsOfFile: "\(from)/\(unit)", encoding: .utf8)
            let fixed = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
                line.hasPrefix("ExecStart=") ? "ExecStart=\(binary) " + line.split(separator: " ").dropFirst().joined(separator: " ") : String(line)
            }.joined(separator: "\n")
            try fixed.write(toFile: dir.appending(unit), atomically: true, encoding: .utf8)
            paths.append(dir.appending(unit))
        }
        return try run(analyzer!, ["verify"] + paths)
    }

    @Test(.enabled(if: analyzer != nil, "systemd-analyze is missing (scripts/bootstrap installs Debian's systemd)"))
    func theSystemInstallVerifiesIsHardenedAndUninstalls() throws {
        let dir = try TemporaryDirectory("install")
        defer { dir.remove() }
        let stage = dir.appending("stage")
        let installed = try Self.install(stage, [])
        #expect(installed.status == 0, "\(installed.standardOutput)")
        let files = [
            "/usr/local/bin/docsync", "/usr/local/bin/docsync-serve", "/etc/systemd/system/docsync.service",
            "/etc/systemd/system/docsync.timer",
            "/usr/lib/sysusers.d/docsync.conf", "/usr/lib/tmpfiles.d/docsync.conf", "/etc/docsync/docsync.toml",
        ]
        for file in files { #expect(FileManager.default.fileExists(atPath: stage + file), "\(file)") }
        let service = try String(contentsOfFile: "\(stage)/etc/systemd/system/docsync.service", encoding: .utf8)
        #expect(service.contains("ExecStart=/usr/local/bin/docsync sync --config /etc/docsync/docsync.toml"))

        let units = try TemporaryDirectory("units")
        defer { units.remove() }
        let verify = try Self.verify(
            units: ["docsync.service", "docsync.timer"], binary: "\(stage)/usr/local/bin/docsync",
            from: "\(stage)/etc/systemd/system", in: units)
        #expect(verify.status == 0 && verify.standardOutput.isEmpty, "\(verify.standardOutput)")

        let security = try Self.run(Self.analyzer!, ["security", "--offline=yes", units.appending("docsync.service")])
        let overall = try #require(
            security.standardOutput.split(separator: "\n").first { $0.contains("Overall exposure level") },
            "\(security.standardOutput)")
        let score = try #require(Double(overall.split(separator: ":").last!.split(separator: " ").first ?? ""))
        #expect(score <= 2.0 && overall.contains("OK"), "\(overall)")

        // The config's folders are the unit's ReadWritePaths (the sandbox lets it write nowhere else).
        let config = try DocSyncConfigurationLoader().load(file: "\(stage)/etc/docsync/docsync.toml")
        let writable = service.split(separator: "\n").filter { $0.hasPrefix("ReadWritePaths=") }
            .flatMap { $0.dropFirst("ReadWritePaths=".count).split(separator: " ").map(String.init) }
        for path in [config.root, config.staging, config.state] {
            #expect(writable.contains { path.hasPrefix($0 + "/") }, "\(path) under \(writable)")
        }
        // sysusers.d and tmpfiles.d entries apply (against the staged root).
        let tmpfiles = try String(contentsOfFile: "\(stage)/usr/lib/tmpfiles.d/docsync.conf", encoding: .utf8)
        for path in [config.root, config.staging, config.state] { #expect(tmpfiles.contains("d \(path) ")) }
        #expect(try Self.run("/usr/bin/env", ["systemd-sysusers", "--root=\(stage)", "\(stage)/usr/lib/sysusers.d/docsync.conf"]).status == 0)
        #expect(try String(contentsOfFile: "\(stage)/etc/passwd", encoding: .utf8).contains("docsync:x:"))

        // The binary is stripped (no symbol table).
        let sections = try Self.run("/usr/bin/env", ["readelf", "-S", "\(stage)/usr/local/bin/docsync"])
        if sections.status == 0 { #expect(!sections.standardOutput.contains(".symtab")) }

        let removed = try Self.install(stage, ["--uninstall"])
        #expect(removed.status == 0, "\(removed.standardOutput)")
        for file in files { #expect(!FileManager.default.fileExists(atPath: stage + file), "\(file) removed") }
    }

    @Test(.enabled(if: analyzer != nil, "systemd-analyze is missing (scripts/bootstrap installs Debian's systemd)"))
    func theUserInstallPointsAtZealsFolderAndKeepsAnEditedConfig() throws {
        let dir = try TemporaryDirectory("install-user")
        defer { dir.remove() }
        let stage = dir.appending("stage")
        let home = "/home/zeal-user"
        let installed = try Self.install(stage, ["--user"], home: home)
        #expect(installed.status == 0, "\(installed.standardOutput)")
        let unitDir = "\(stage)\(home)/.config/systemd/user"
        let service = try String(contentsOfFile: "\(unitDir)/docsync.service", encoding: .utf8)
        #expect(service.contains("ExecStart=\(home)/.local/bin/docsync sync --wait"), "\(service)")
        #expect(FileManager.default.isExecutableFile(atPath: "\(stage)\(home)/.local/bin/docsync"))
        #expect(FileManager.default.isExecutableFile(atPath: "\(stage)\(home)/.local/bin/docsync-serve"))
        let units = try TemporaryDirectory("units")
        defer { units.remove() }
        let verify = try Self.verify(
            units: ["docsync.service", "docsync.timer"], binary: "\(stage)\(home)/.local/bin/docsync", from: unitDir,
            in: units)
        #expect(verify.status == 0 && verify.standardOutput.isEmpty, "\(verify.standardOutput)")
        let loader = DocSyncConfigurationLoader(environment: ["HOME": home])
        let config = try loader.load(file: "\(stage)\(home)/.config/docsync/docsync.toml")
        #expect(config.root == "\(home)/.local/share/Zeal/Zeal/docsets")

        let configPath = "\(stage)\(home)/.config/docsync/docsync.toml"
        try (String(contentsOfFile: configPath, encoding: .utf8) + "\n# my feeds\n")
            .write(toFile: configPath, atomically: true, encoding: .utf8)
        let removed = try Self.install(stage, ["--uninstall", "--user"], home: home)
        #expect(removed.status == 0, "\(removed.standardOutput)")
        #expect(removed.standardOutput.contains("kept \(home)/.config/docsync/docsync.toml (edited"))
        #expect(!FileManager.default.fileExists(atPath: "\(unitDir)/docsync.service"))
        #expect(!FileManager.default.fileExists(atPath: "\(stage)\(home)/.local/bin/docsync"))
        #expect(!FileManager.default.fileExists(atPath: "\(stage)\(home)/.local/bin/docsync-serve"))
        #expect(FileManager.default.fileExists(atPath: configPath))
    }
}
