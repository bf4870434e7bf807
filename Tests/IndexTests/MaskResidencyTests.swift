@testable import DocSyncIndex
import Foundation
import TestSupport
import Testing

/// The scans compare the scan masks in place in `names.bin`'s mapping (`MaskWalk`), and check candidate names in
/// place in its rank names area (`NameTable.keepsNames`: no limit on the masks), so `NameTable.release` keeps
/// exactly those pages mapped — every query that reaches them would fault them back in — and drops every other
/// page a search touched. Measured on the mapping's own line of `/proc/self/smaps` (its `Rss`), which no other
/// test's memory moves.
@Suite(.timeLimit(.minutes(10))) struct MaskResidencyTests {
    /// The resident KiB of this process's mapping of `path` (nil when it has no such mapping).
    static func residentKiB(of path: String) throws -> Int? {
        // Read to the end (procfs reports a size of 0).
        let handle = try #require(FileHandle(forReadingAtPath: "/proc/self/smaps"))
        defer { try? handle.close() }
        let smaps = String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self)
        var inMapping = false
        for line in smaps.split(separator: "\n") {
            let range = line.prefix { $0 != " " }
            if range.contains("-"), range.allSatisfy({ $0.isHexDigit || $0 == "-" }) {
                inMapping = line.hasSuffix(" " + path)
            } else if inMapping, line.hasPrefix("Rss:") {
                return Int(line.split(separator: " ", omittingEmptySubsequences: true)[1])
            }
        }
        return nil
    }

    @Test func releaseKeepsTheMasksAndRankNamesAndDropsTheRest() throws {
        var random = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        let entries = NameTableScaleTests.entries(&random)  // ~70k names: masks of ~135 pages
        let dir = try TemporaryDirectory("mask-residency")
        defer { dir.remove() }
        let path = dir.appending("names.bin")
        try NameTableScaleTests.build(entries, spill: nil, to: path)
        let table = try #require(NameTable(path: path), "seed \(random.seed)")
        let mapped = URL(fileURLWithPath: path).resolvingSymlinksInPath().path  // as smaps names it
        let page = Int(getpagesize())
        let masksFrom = table.areas.lengthMasks / page * page
        let masksTo = (table.areas.types + page - 1) / page * page
        let masksKiB = (masksTo - masksFrom) / 1024
        let namesFrom = table.areas.rankNames / page * page
        let namesTo = (table.areas.recordArea + page - 1) / page * page
        let keptKiB = masksKiB + (namesTo - max(namesFrom, masksTo)) / 1024
        #expect(table.keepsMasks && table.keepsNames && namesFrom >= masksFrom)

        // A scan over every rank touches every mask page; `release` leaves them mapped, and drops what opening the
        // table read beside them (but for rank name pages the kernel mapped around the names area's last fences).
        let walk = MaskWalk(tables: [table])
        var passed = 0
        walk.scan(0, NameTable.scanMask(Array("a".utf8)), ranks: 0..<table.count) { _ in passed += 1 }
        #expect(passed > 0 && passed < table.count, "seed \(random.seed)")
        table.release()
        let afterScan = try #require(try Self.residentKiB(of: mapped))
        #expect(afterScan >= masksKiB - 2 * page / 1024 && afterScan <= keptKiB, "\(afterScan) KiB of \(masksKiB)")

        // Touching the whole mapping, then releasing, leaves the masks' and the rank names' pages: everything else
        // is dropped.
        var sum = 0
        let bytes = UnsafeRawBufferPointer(start: table.base, count: table.areas.end)
        for offset in stride(from: 0, to: bytes.count, by: page) { sum &+= Int(bytes[offset]) }
        let touched = try #require(try Self.residentKiB(of: mapped))
        #expect(touched > keptKiB + masksKiB, "the whole mapping was resident: \(touched) KiB (\(sum))")
        table.release()
        let afterTouch = try #require(try Self.residentKiB(of: mapped))
        #expect(afterTouch >= keptKiB - 4 * page / 1024 && afterTouch <= keptKiB, "\(afterTouch) KiB of \(keptKiB)")
    }

    /// Which tables keep their masks and their rank names mapped, by budget: names only without a limit (the
    /// library's default); a bounded budget (`serve`'s) keeps masks while it has room, and never names.
    @Test(arguments: [
        (budget: nil, masks: true, names: true), (budget: Int.max, masks: true, names: true),
        (budget: 1 << 30, masks: true, names: false), (budget: 0, masks: false, names: false),
    ] as [(budget: Int?, masks: Bool, names: Bool)])
    func whatATableKeepsMapped(budget: Int?, masks: Bool, names: Bool) throws {
        let dir = try TemporaryDirectory("mask-policy")
        defer { dir.remove() }
        let path = dir.appending("names.bin")
        try NameTableScaleTests.build(NameTableLayoutTests.entries, spill: nil, to: path)
        let table = try #require(NameTable(path: path, masks: budget.map { MaskBudget(bytes: $0) }))
        #expect(table.keepsMasks == masks && table.keepsNames == names, "budget \(String(describing: budget))")
    }

    /// A table opened when its index's `MaskBudget` has no room reads its masks through `MaskWalk`'s window: the
    /// same ranks pass, and no page of its mapping stays resident (`serve`'s resident set does not grow with the
    /// masks past its budget); the budget a table took is given back when it closes.
    @Test func pastTheBudgetNoMaskPageStaysMapped() throws {
        var random = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        let entries = NameTableScaleTests.entries(&random)
        let dir = try TemporaryDirectory("mask-budget")
        defer { dir.remove() }
        let path = dir.appending("names.bin")
        try NameTableScaleTests.build(entries, spill: nil, to: path)
        let copy = dir.appending("copy.bin")
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        let mapped = URL(fileURLWithPath: copy).resolvingSymlinksInPath().path
        let wanted = NameTable.scanMask(Array("a".utf8))

        let budget = MaskBudget(bytes: 8 * entries.count)  // room for one table's masks
        do {
            let keeping = try #require(NameTable(path: path, masks: budget), "seed \(random.seed)")
            let windowed = try #require(NameTable(path: copy, masks: budget))
            // A bounded budget (`serve`'s) keeps masks only: names are read with `pread`.
            #expect(keeping.keepsMasks && !windowed.keepsMasks && !keeping.keepsNames && !windowed.keepsNames)
            var inPlace: [Int] = []
            MaskWalk(tables: [keeping]).scan(0, wanted, ranks: 0..<keeping.count) { inPlace.append($0) }
            var read: [Int] = []
            MaskWalk(tables: [windowed]).scan(0, wanted, ranks: 0..<windowed.count) { read.append($0) }
            #expect(!read.isEmpty && read == inPlace, "seed \(random.seed)")
            // The windowed table's mapping (of its own copy of the file) has no page resident after the scan, even
            // before `release`: the masks were read with `pread`.
            let resident = try #require(try Self.residentKiB(of: mapped))
            #expect(resident <= 2 * Int(getpagesize()) / 1024, "\(resident) KiB of the windowed table's mapping")
        }
        let reopened = try #require(NameTable(path: path, masks: budget))
        #expect(reopened.keepsMasks, "the closed table's budget was given back")
    }
}
