import DocSyncTarix
import Foundation
import TestSupport

/// A docset tree generated in a temporary folder from a seeded generator, archived by GNU tar in a chosen format,
/// and the helpers the tarix tests share (building a store, extracting with GNU tar, Zeal's reading algorithm in
/// Python).
struct TarixFixture {
    let dir: TemporaryDirectory
    let name = "Sample.docset"
    /// Paths relative to the docset folder → contents.
    var files: [String: [UInt8]] = [:]
    var directories: [String] = []

    static let documents = "Contents/Resources/Documents"

    /// `count` small HTML files in nested folders, a few names over 100 (and over 155) bytes, empty files,
    /// an empty folder, non-ASCII names and the usual metadata files.
    /// `ustar`: only long paths ustar can split into prefix and name (no component over 100 bytes).
    static func make(_ random: inout TestRandom, count: Int = 300, longNames: Bool = true, ustar: Bool = false) throws
        -> TarixFixture
    {
        var fixture = TarixFixture(dir: try TemporaryDirectory("tarix"))
        fixture.files["Contents/Info.plist"] = Array("<plist><dict></dict></plist>\n".utf8)
        fixture.files["Contents/Resources/docSet.dsidx"] = (0..<3000).map { _ in
            UInt8.random(in: 0...255, using: &random)
        }
        fixture.directories = ["Contents", "Contents/Resources", documents, "\(documents)/empty-folder"]
        for i in 0..<count {
            let folder = "\(documents)/section-\(i % 7)/part-\(i % 3)"
            let size = Int.random(in: 0...9000, using: &random)
            var text = "<html><body><h1>Page \(i)</h1>\n"
            while text.utf8.count < size {
                text += "<p>word\(Int.random(in: 0...500, using: &random)) lorem ipsum \(i)</p>\n"
            }
            fixture.files["\(folder)/page-\(i).html"] = Array(text.utf8.prefix(size))
        }
        fixture.files["\(documents)/empty.html"] = []
        fixture.files["\(documents)/Résumé – 日本語.html"] = Array("<p>é</p>".utf8)
        fixture.files["\(documents)/operator*.html"] = Array("star".utf8)
        if longNames {
            fixture.files[
                "\(documents)/a/\(String(repeating: "x", count: 90))/\(String(repeating: "y", count: 90))/z.html"] =
                Array("deep long path".utf8)
        }
        if longNames && !ustar {
            let long = String(repeating: "d", count: 120)
            fixture.files["\(documents)/\(long)/page.html"] = Array("long name content".utf8)
            fixture.files["\(documents)/\(String(repeating: "n", count: 150)).html"] = Array("150-byte name".utf8)
            fixture.files["\(documents)/\(long)/empty-too.html"] = []
        }
        for (path, bytes) in fixture.files {
            let full = fixture.root + "/" + path
            try FileManager.default.createDirectory(
                atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            guard FileManager.default.createFile(atPath: full, contents: Data(bytes)) else {
                throw FixtureFailure(command: "create \(full)", output: "")
            }
        }
        for folder in fixture.directories {
            try FileManager.default.createDirectory(
                atPath: fixture.root + "/" + folder, withIntermediateDirectories: true)
        }
        return fixture
    }

    var root: String { dir.appending("tree/\(name)") }

    /// Archives the tree with GNU tar (`gnu`, `pax`, `ustar`, `oldgnu`) into a `.tgz`; `dotSlash` archives `.`.
    func archive(format: String, dotSlash: Bool = false) throws -> String {
        let path = dir.appending("source-\(format)\(dotSlash ? "-dot" : "").tgz")
        let source = dotSlash ? ["-C", root + "/..", "."] : ["-C", dir.appending("tree"), name]
        try run("/usr/bin/tar", ["--format=\(format)", "--sort=name", "-czf", path] + source)
        return path
    }

    /// GNU tar's extraction of `archive` into a fresh folder; returns the docset folder.
    func extract(_ archive: String, label: String) throws -> String {
        let target = dir.appending("extracted-\(label)")
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
        try run("/usr/bin/tar", ["-xzf", archive, "-C", target])
        return target
    }

    /// A tarix store built from `source`: (archive, index, summary).
    func build(_ source: String, label: String, level: Int32 = 1, limits: TarixLimits = TarixLimits()) throws
        -> (archive: String, index: String, summary: TarixSummary)
    {
        let output = dir.appending("tarix-\(label).tgz")
        let index = dir.appending("tarixIndex-\(label).db")
        let sourceFD = open(source, O_RDONLY)
        let outputFD = open(output, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        defer {
            close(sourceFD)
            close(outputFD)
        }
        let summary = try TarixBuilder.build(
            source: sourceFD, sourceName: source, output: outputFD, outputName: output, indexPath: index, level: level,
            limits: limits)
        return (summary.mode == .indexedAsIs ? source : output, index, summary)
    }

    func verify(_ archive: String, _ index: String) throws -> TarixSummary {
        let fd = open(archive, O_RDONLY)
        defer { close(fd) }
        return try TarixVerifier.verify(archive: fd, archiveName: archive, indexPath: index)
    }

    func run(_ tool: String, _ arguments: [String]) throws {
        let result = try Tool.run(tool, arguments)
        guard result.status == 0 else {
            throw FixtureFailure(command: ([tool] + arguments).joined(separator: " "), output: result.standardError)
        }
    }

    /// Runs a Python script (written to the fixture folder) and returns its standard output.
    func python(_ script: String, _ arguments: [String]) throws -> String {
        let path = dir.write("script-\(abs(script.hashValue)).py", script)
        let result = try Tool.run("/usr/bin/python3", [path] + arguments)
        guard result.status == 0 else {
            throw FixtureFailure(command: "python3 \(arguments.joined(separator: " "))", output: result.standardError)
        }
        return result.standardOutput
    }

    func fileSize(_ path: String) -> Int64 {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.int64Value ?? -1
    }
}

/// A fixture step (a file, GNU tar, Python) failed: the command and its standard error.
struct FixtureFailure: Error, CustomStringConvertible {
    let command: String
    let output: String
    var description: String { "\(command) failed: \(output)" }
}
