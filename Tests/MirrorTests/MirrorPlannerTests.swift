import DocSyncMirror
import Foundation
import Testing

/// The pure half of a publish: which versions each feed names (`keep`), which archive folders retire, and when a
/// retired one may go (its grace period passed and no feed names it).
@Suite(.timeLimit(.minutes(5))) struct MirrorPlannerTests {
    static func version(_ name: String, _ version: String, _ digit: Character) -> MirrorVersion {
        MirrorVersion(
            name: name, title: name, version: version, sha256: String(repeating: digit, count: 64), size: 10,
            upstream: ["https://up.example/\(name).tgz"])
    }

    static let now = Date(timeIntervalSince1970: 2_000_000_000)
    static let a1 = version("A", "1", "a"), a2 = version("A", "2", "b"), a3 = version("A", "3", "c")
    static let b1 = version("B", "1", "d")

    @Test func firstPublishNamesWhatIsInstalled() {
        let plan = MirrorPlanner.plan(
            previous: MirrorState(), installed: [Self.a1, Self.b1], pool: [Self.a1.sha256, Self.b1.sha256], keep: 2,
            grace: 60, now: Self.now)
        #expect(plan.state.docsets == ["A": [Self.a1], "B": [Self.b1]])
        #expect(plan.expired.isEmpty && plan.dropped.isEmpty && plan.state.retired.isEmpty)
    }

    @Test(arguments: [
        // (keep, previous versions of A, expected versions of A after publishing a3)
        (1, [a2, a1], [a3]),
        (2, [a2, a1], [a3, a2]),
        (3, [a2, a1], [a3, a2, a1]),
        (2, [a3, a2], [a3, a2]),  // republishing the same version changes nothing
    ])
    func keepsTheNewestVersions(keep: Int, previous: [MirrorVersion], expected: [MirrorVersion]) {
        let pool = Set([Self.a1, Self.a2, Self.a3].map(\.sha256))
        let plan = MirrorPlanner.plan(
            previous: MirrorState(docsets: ["A": previous]), installed: [Self.a3], pool: pool, keep: keep, grace: 60,
            now: Self.now)
        #expect(plan.state.docsets["A"] == expected)
    }

    @Test func aRetiredArchiveStaysForItsGracePeriod() {
        let pool = Set([Self.a1.sha256, Self.a2.sha256])
        let first = MirrorPlanner.plan(
            previous: MirrorState(docsets: ["A": [Self.a1]]), installed: [Self.a2], pool: pool, keep: 1, grace: 60,
            now: Self.now)
        #expect(first.expired.isEmpty)
        #expect(first.state.retired == [Self.a1.sha256: Self.now])
        let early = MirrorPlanner.plan(
            previous: first.state, installed: [Self.a2], pool: pool, keep: 1, grace: 60,
            now: Self.now.addingTimeInterval(59))
        #expect(early.expired.isEmpty && early.state.retired[Self.a1.sha256] == Self.now)
        let late = MirrorPlanner.plan(
            previous: first.state, installed: [Self.a2], pool: pool, keep: 1, grace: 60,
            now: Self.now.addingTimeInterval(60))
        #expect(late.expired == [Self.a1.sha256] && late.state.retired.isEmpty)
    }

    @Test func leftoversOfAnInterruptedPublishRetireLikeAnyUnnamedFolder() {
        let stray = String(repeating: "f", count: 64)
        let plan = MirrorPlanner.plan(
            previous: MirrorState(docsets: ["A": [Self.a1]]), installed: [Self.a1], pool: [Self.a1.sha256, stray],
            keep: 2, grace: 60, now: Self.now)
        #expect(plan.expired.isEmpty && plan.state.retired == [stray: Self.now])
    }

    @Test func aDocsetNoLongerInstalledLosesItsFeedAndItsArchivesRetire() {
        let plan = MirrorPlanner.plan(
            previous: MirrorState(docsets: ["A": [Self.a1], "B": [Self.b1]]), installed: [Self.a1],
            pool: [Self.a1.sha256, Self.b1.sha256], keep: 2, grace: 0, now: Self.now)
        #expect(plan.dropped == ["B"] && plan.expired == [Self.b1.sha256])
    }
}

/// A docset still installed whose newest archive could not be had keeps the versions published before (only those
/// whose archive folder is in the pool): never dropped, never a feed naming a missing archive.
@Suite(.timeLimit(.minutes(5))) struct MirrorPlannerHeldTests {
    typealias T = MirrorPlannerTests

    @Test(arguments: [
        // (previous versions of A, pool, held, expected versions of A)
        ([T.a2, T.a1], [T.a2.sha256, T.a1.sha256], ["A"], [T.a2, T.a1]),
        ([T.a2, T.a1], [T.a1.sha256], ["A"], [T.a1]),  // a2's folder is gone: not named
        ([T.a2], [] as [String], ["A"], nil),  // nothing left to name: the feed goes
        ([T.a2, T.a1], [T.a2.sha256, T.a1.sha256], [], nil),  // not held: no longer installed, dropped
    ] as [([MirrorVersion], [String], Set<String>, [MirrorVersion]?)])
    func heldDocsetsKeepTheirPublishedVersions(
        previous: [MirrorVersion], pool: [String], held: Set<String>, expected: [MirrorVersion]?
    ) {
        let plan = MirrorPlanner.plan(
            previous: MirrorState(docsets: ["A": previous, "B": [T.b1]]), installed: [T.b1], held: held,
            pool: Set(pool + [T.b1.sha256]), keep: 2, grace: 60, now: T.now)
        #expect(plan.state.docsets["A"] == expected)
        #expect(plan.dropped == (expected == nil ? ["A"] : []))
        #expect(plan.state.docsets["B"] == [T.b1])
        for digest in expected?.map(\.sha256) ?? [] { #expect(!plan.expired.contains(digest)) }
    }

    @Test func aHeldNameThatIsAlsoInstalledPublishesTheInstalledVersion() {
        let plan = MirrorPlanner.plan(
            previous: MirrorState(docsets: ["A": [T.a1]]), installed: [T.a2], held: ["A"],
            pool: [T.a1.sha256, T.a2.sha256], keep: 2, grace: 60, now: T.now)
        #expect(plan.state.docsets["A"] == [T.a2, T.a1])
    }
}
