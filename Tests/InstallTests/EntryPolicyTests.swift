import Testing

@testable import DocSyncInstall

/// One row per rule of `EntryPolicy`: the entries before are accepted or skipped, the last one gets `expected`.
struct PolicyRow: Sendable, CustomTestStringConvertible {
    let name: String
    var before: [ArchiveEntryMetadata] = []
    let entry: ArchiveEntryMetadata
    var limits = InstallLimits()
    var archiveBytes: Int64? = 1 << 20
    let expected: EntryDecision

    var testDescription: String { name }
}

private func file(_ path: String, mode: UInt32 = 0o644, size: Int64 = 10) -> ArchiveEntryMetadata {
    ArchiveEntryMetadata(path, kind: .regular, permissions: mode, size: size)
}

private func dir(_ path: String, mode: UInt32 = 0o755) -> ArchiveEntryMetadata {
    ArchiveEntryMetadata(path, kind: .directory, permissions: mode)
}

private func link(_ path: String, _ target: String) -> ArchiveEntryMetadata {
    ArchiveEntryMetadata(path, kind: .symlink(target: Array(target.utf8)), permissions: 0o777)
}

private func accept(_ path: String, _ action: PlannedEntry.Action, from archivePath: String) -> EntryDecision {
    .accept(
        PlannedEntry(
            components: path.split(separator: "/").map { Array($0.utf8) }, action: action, archivePath: archivePath))
}

private func limits(_ change: (inout InstallLimits) -> Void) -> InstallLimits {
    var limits = InstallLimits()
    change(&limits)
    return limits
}

private let policyRows: [PolicyRow] = [
    PolicyRow(name: "absolute path", entry: file("/etc/passwd"), expected: .reject(.absolutePath)),
    PolicyRow(name: "dot-dot component", entry: file("X.docset/../../etc/cron"), expected: .reject(.parentTraversal)),
    PolicyRow(
        name: "NUL byte", entry: ArchiveEntryMetadata(path: Array("X.docset/a".utf8) + [0, 65], kind: .regular),
        expected: .reject(.nulByte)),
    PolicyRow(name: "empty component", entry: file("X.docset//Contents"), expected: .reject(.emptyComponent)),
    PolicyRow(
        name: "name over NAME_MAX", entry: file("X.docset/" + String(repeating: "n", count: 256)),
        expected: .reject(.nameTooLong(limit: 255))),
    PolicyRow(
        name: "path too long", entry: file(String(repeating: "abcdefghi/", count: 103)),
        expected: .reject(.pathTooLong(limit: 1024))),
    PolicyRow(
        name: "too deep", entry: file(Array(repeating: "d", count: 49).joined(separator: "/")),
        expected: .reject(.tooDeep(limit: 48))),
    PolicyRow(
        name: "character device", entry: ArchiveEntryMetadata("X.docset/null", kind: .characterDevice),
        expected: .reject(.specialFile("character device"))),
    PolicyRow(
        name: "block device", entry: ArchiveEntryMetadata("X.docset/sda", kind: .blockDevice),
        expected: .reject(.specialFile("block device"))),
    PolicyRow(
        name: "FIFO", entry: ArchiveEntryMetadata("X.docset/pipe", kind: .fifo), expected: .reject(.specialFile("FIFO"))
    ),
    PolicyRow(
        name: "socket", entry: ArchiveEntryMetadata("X.docset/sock", kind: .socket),
        expected: .reject(.specialFile("socket"))),
    PolicyRow(
        name: "hard link",
        entry: ArchiveEntryMetadata("X.docset/h", kind: .hardlink(target: Array("/etc/shadow".utf8))),
        expected: .reject(.hardlink)),
    PolicyRow(
        name: "symlink to an absolute path", entry: link("X.docset/Contents/l", "/etc/passwd"),
        expected: .reject(.symlinkEscapes(target: "/etc/passwd"))),
    PolicyRow(
        name: "symlink climbing out", entry: link("X.docset/Contents/l", "../../x"),
        expected: .reject(.symlinkEscapes(target: "../../x"))),
    PolicyRow(
        name: "symlink climbing after descending", entry: link("X.docset/Contents/l", "a/../../x"),
        expected: .reject(.symlinkEscapes(target: "a/../../x"))),
    PolicyRow(
        name: "symlink inside is kept", entry: link("X.docset/Contents/Resources/l", "../Info.plist"),
        expected: accept(
            "Contents/Resources/l", .symlink(target: Array("../Info.plist".utf8)),
            from: "X.docset/Contents/Resources/l")),
    PolicyRow(
        name: "setuid executable becomes 0755", entry: file("X.docset/Contents/run", mode: 0o4755),
        expected: accept("Contents/run", .file(mode: 0o755), from: "X.docset/Contents/run")),
    PolicyRow(
        name: "setgid file becomes 0644", entry: file("X.docset/Contents/data", mode: 0o2664),
        expected: accept("Contents/data", .file(mode: 0o644), from: "X.docset/Contents/data")),
    PolicyRow(
        name: "sticky directory is a plain directory", entry: dir("X.docset/Contents", mode: 0o1777),
        expected: accept("Contents", .directory, from: "X.docset/Contents")),
    PolicyRow(
        name: "file over the size cap", entry: file("X.docset/big", size: 101),
        limits: limits { $0.maxFileBytes = 100 },
        expected: .reject(.fileTooLarge(limit: 100))),
    PolicyRow(
        name: "total bytes cap", before: [file("X.docset/a", size: 60)], entry: file("X.docset/b", size: 60),
        limits: limits { $0.maxTotalBytes = 100 }, expected: .reject(.totalBytesExceeded(limit: 100))),
    PolicyRow(
        name: "expansion ratio", entry: file("X.docset/zeros", size: 201_000),
        limits: limits { $0.ratioAllowance = 1000 }, archiveBytes: 1000,
        expected: .reject(.expansionRatioExceeded(limit: 200))),
    PolicyRow(
        name: "entry count", before: [dir("X.docset"), dir("X.docset/Contents")], entry: dir("X.docset/more"),
        limits: limits { $0.maxEntryCount = 2 }, expected: .reject(.tooManyEntries(limit: 2))),
    PolicyRow(name: "AppleDouble above the docset folder", entry: file("./._X.docset"), expected: .skip),
    PolicyRow(
        name: "AppleDouble inside", before: [dir("X.docset")], entry: file("X.docset/Contents/._Info.plist"),
        expected: .skip),
    PolicyRow(name: "__MACOSX folder", entry: file("__MACOSX/X.docset/._a"), expected: .skip),
    PolicyRow(name: "the docset folder itself", entry: dir("X.docset/"), expected: .skip),
    PolicyRow(
        name: "docset folder that is a file", entry: file("X.docset"), expected: .reject(.rootNotDirectory)),
    PolicyRow(
        name: "entry outside the docset folder", before: [file("X.docset/Contents/Info.plist")],
        entry: file("Other/file"), expected: .reject(.outsideDocsetFolder)),
    PolicyRow(
        name: "dot prefix is dropped", entry: file("./X.docset/Contents/Info.plist"),
        expected: accept("Contents/Info.plist", .file(mode: 0o644), from: "./X.docset/Contents/Info.plist")),
    PolicyRow(
        name: "nested docset folder is flattened", before: [dir("X.docset/")],
        entry: file("X.docset/X.docset/Contents/Info.plist"),
        expected: accept("Contents/Info.plist", .file(mode: 0o644), from: "X.docset/X.docset/Contents/Info.plist")),
    PolicyRow(
        name: "outside the nested folder", before: [dir("X.docset/"), dir("X.docset/X.docset/Contents")],
        entry: file("X.docset/stray"), expected: .reject(.outsideDocsetFolder)),
    PolicyRow(
        name: "bare Contents is the docset root", entry: file("Contents/Info.plist"),
        expected: accept("Contents/Info.plist", .file(mode: 0o644), from: "Contents/Info.plist")),
]

@Suite(.timeLimit(.minutes(10))) struct EntryPolicyTests {
    @Test(arguments: policyRows)
    func rule(_ row: PolicyRow) {
        var policy = EntryPolicy(limits: row.limits, archiveBytes: row.archiveBytes)
        for entry in row.before {
            let decision = policy.evaluate(entry)
            if case .reject(let rule) = decision { Issue.record("setup entry \(entry.displayPath) rejected: \(rule)") }
        }
        #expect(policy.evaluate(row.entry) == row.expected)
    }

    @Test func producedBytesAreCappedLikeDeclaredOnes() {
        var limits = InstallLimits()
        limits.maxTotalBytes = 1000
        limits.ratioAllowance = 100
        let policy = EntryPolicy(limits: limits, archiveBytes: 2)
        #expect(policy.checkProduced(totalBytes: 100) == nil)
        #expect(policy.checkProduced(totalBytes: 401) == .expansionRatioExceeded(limit: 200))
        #expect(policy.checkProduced(totalBytes: 1001) == .totalBytesExceeded(limit: 1000))
    }

    @Test func ratioOfAStreamOfUnknownSizeUsesTheBytesConsumed() {
        var limits = InstallLimits()
        limits.ratioAllowance = 100
        let policy = EntryPolicy(limits: limits, archiveBytes: nil)
        #expect(policy.checkProduced(totalBytes: 400, consumedBytes: 2) == nil)
        #expect(policy.checkProduced(totalBytes: 401, consumedBytes: 2) == .expansionRatioExceeded(limit: 200))
    }
}
