import DocSync
import Foundation
import Testing

@Suite(.timeLimit(.minutes(5))) struct PlannerTests {
    static let day1 = Date(timeIntervalSince1970: 1_700_000_000)
    static let day2 = day1.addingTimeInterval(86400)

    func offer(
        _ name: String, _ version: String, id: String? = nil, updated: Date? = nil, feed: String = "f1",
        pinned: Bool = false
    ) -> DocsetCandidate {
        DocsetCandidate(
            name: name, identifier: id, title: name, version: DocsetVersion(dash: version), updated: updated,
            archives: ["http://h/\(name).tgz"], feed: feed, pinned: pinned)
    }

    /// An installed docset as the installer reports it: docsync's own install (`installedAt`) from `feed`, or a
    /// folder another tool made (`feed: nil`, no install record).
    func installed(_ name: String, _ version: String, id: String? = nil, updated: Date? = nil, feed: String? = "f1")
        -> InstalledDocset
    {
        let version = DocsetVersion(dash: version)
        return InstalledDocset(
            name: name, version: version.version, revision: version.revision.isEmpty ? nil : version.revision,
            identifier: id, path: "/root/\(name).docset", installedAt: feed == nil ? nil : Self.day1, feedURL: feed,
            updated: updated)
    }

    func kinds(_ plan: SyncPlan) -> [String] {
        plan.actions.map { action in
            switch action {
            case .install(let c): "install \(c.name) \(c.version)"
            case .update(let c, let from): "update \(c.name) \(from.plannedVersion)->\(c.version)"
            case .unchanged(let c, _): "unchanged \(c.name)"
            case .orphan(let i, let prune): "\(prune ? "prune" : "orphan") \(i.name)"
            case .skipped(let name, _, let reason): "skip \(name): \(reason)"
            }
        }
    }

    @Test func notInstalledIsInstalled() {
        #expect(
            kinds(Planner.plan(offers: [offer("Swift", "5.9")], installed: [], prune: false)) == ["install Swift 5.9"])
    }

    @Test func newerVersionUpdates() {
        let plan = Planner.plan(offers: [offer("Swift", "6.0")], installed: [installed("Swift", "5.9")], prune: false)
        #expect(kinds(plan) == ["update Swift 5.9->6.0"])
    }

    @Test func newerRevisionUpdates() {
        let plan = Planner.plan(offers: [offer("Swift", "/9")], installed: [installed("Swift", "/8")], prune: false)
        #expect(kinds(plan) == ["update Swift /8->/9"])
    }

    @Test func sameVersionIsUnchanged() {
        let plan = Planner.plan(offers: [offer("Swift", "2.2")], installed: [installed("Swift", "2.2.0")], prune: false)
        #expect(kinds(plan) == ["unchanged Swift"])
    }

    @Test func olderOfferNeverDowngrades() {
        let plan = Planner.plan(offers: [offer("Swift", "5.8")], installed: [installed("Swift", "5.9")], prune: false)
        #expect(kinds(plan) == ["unchanged Swift"])
    }

    @Test func pinnedVersionReplacesEvenANewerOne() {
        let plan = Planner.plan(
            offers: [offer("Swift", "5.8", pinned: true)], installed: [installed("Swift", "5.9")], prune: false)
        #expect(kinds(plan) == ["update Swift 5.9->5.8"])
    }

    @Test func atomRepublicationWithNewerUpdatedCountsAsNew() {
        let plan = Planner.plan(
            offers: [offer("CUPS", "2.2.0", id: "org.cups", updated: Self.day2)],
            installed: [installed("CUPS", "2.2.0", id: "org.cups", updated: Self.day1)], prune: false)
        #expect(kinds(plan) == ["update CUPS 2.2.0->2.2.0"])
        let same = Planner.plan(
            offers: [offer("CUPS", "2.2.0", id: "org.cups", updated: Self.day1)],
            installed: [installed("CUPS", "2.2.0", id: "org.cups", updated: Self.day1)], prune: false)
        #expect(kinds(same) == ["unchanged CUPS"])
    }

    @Test func identifierKeepsTheInstalledFolderNameWhenTheTitleChanges() {
        let plan = Planner.plan(
            offers: [offer("CUPS Documentation", "2.3", id: "org.cups")],
            installed: [installed("CUPS", "2.2", id: "org.cups")], prune: false)
        #expect(kinds(plan) == ["update CUPS 2.2->2.3"])
    }

    @Test func twoFeedsClaimingOneFolderNameConflict() {
        let plan = Planner.plan(
            offers: [offer("Swift", "5.9", feed: "f1"), offer("Swift", "6.0", feed: "f2")], installed: [],
            prune: false)
        #expect(kinds(plan).count == 2)
        #expect(kinds(plan)[0] == "install Swift 5.9")
        #expect(kinds(plan)[1].hasPrefix("skip Swift: folder name \"Swift.docset\" is already used by f1"))
    }

    @Test func docsetsNoFeedOffersAreReportedOrPruned() {
        let state = [installed("Old", "1.0"), installed("ByHand", "1.0", feed: nil)]
        #expect(kinds(Planner.plan(offers: [], installed: state, prune: false)) == ["orphan Old"])
        #expect(kinds(Planner.plan(offers: [], installed: state, prune: true)) == ["prune Old"])
    }

    @Test func aFolderZealMadeKeepsItsFeedURLAndIsNeverPruned() {
        var zeal = installed("Zealed", "1.0")
        zeal.installedAt = nil  // meta.json names feed f1, but docsync has no record of installing it
        #expect(zeal.owningFeed == nil)
        #expect(kinds(Planner.plan(offers: [], installed: [zeal, installed("Old", "1.0")], prune: true)) == ["prune Old"])
    }

    @Test func aFailedFeedNeverPrunesItsDocsets() {
        let plan = Planner.plan(
            offers: [], failedFeeds: ["f1"], installed: [installed("Swift", "5.9", feed: "f1")], prune: true)
        #expect(kinds(plan).isEmpty)
    }

    @Test func skippedEntriesAreReportedAndTheirInstallKept() {
        let skip = SyncPlan.Action.skipped(name: "Swift", feed: "f1", reason: "pinned version 4.0 is not offered")
        let plan = Planner.plan(offers: [], skipped: [skip], installed: [installed("Swift", "5.9")], prune: true)
        #expect(kinds(plan) == ["skip Swift: pinned version 4.0 is not offered"])
    }
}
