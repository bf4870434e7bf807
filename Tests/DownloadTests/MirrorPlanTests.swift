import DocSyncDownload
import Testing

/// The HTTPS-First mirror expansion (`MirrorPlan`): which URLs are tried, in which order, under each policy.
@Suite(.timeLimit(.minutes(10))) struct MirrorPlanTests {
    @Test func httpsFirstTriesTheUpgradeThenThePlainURL() {
        let plan = MirrorPlan.expand(["http://a.example/x.tgz", "https://b.example/x.tgz"], policy: .httpsFirst)
        #expect(
            plan == [
                Mirror(url: "https://a.example/x.tgz", isUpgrade: true), Mirror(url: "http://a.example/x.tgz"),
                Mirror(url: "https://b.example/x.tgz"),
            ])
    }

    @Test func httpsFirstKeepsAListedHTTPSMirrorAsAnOrdinaryOne() {
        let plan = MirrorPlan.expand(["https://a.example/x", "HTTP://a.example/x"], policy: .httpsFirst)
        #expect(plan == [Mirror(url: "https://a.example/x"), Mirror(url: "HTTP://a.example/x")])
    }

    @Test func httpsOnlyNeverKeepsPlainHTTP() {
        let plan = MirrorPlan.expand(["http://a.example:8080/x", "http://127.0.0.1/x"], policy: .httpsOnly)
        #expect(plan == [Mirror(url: "https://a.example:8080/x"), Mirror(url: "https://127.0.0.1/x")])
    }

    @Test func asGivenChangesNothing() {
        #expect(MirrorPlan.expand(["http://a.example/x"], policy: .asGiven) == [Mirror(url: "http://a.example/x")])
    }

    @Test(arguments: [
        ("http://localhost:8080/x", true), ("http://docs.localhost/x", true), ("http://127.0.0.1:80/x", true),
        ("http://192.168.1.5/x", true), ("http://[::1]:8080/x", true), ("http://user@10.0.0.1/x", true),
        ("http://example.org/x", false), ("http://8.8.8.8/x", false), ("http://[2001:db8::1]/x", false),
    ])
    func localHostsStayPlainUnderHTTPSFirst(url: String, local: Bool) {
        #expect(MirrorPlan.isLocal(url) == local, "\(url)")
        let plan = MirrorPlan.expand([url], policy: .httpsFirst)
        #expect(plan.count == (local ? 1 : 2), "\(plan)")
        #expect(MirrorPlan.expand([url], policy: .httpsFirst, upgradeLocal: true).count == 2)
    }
}
