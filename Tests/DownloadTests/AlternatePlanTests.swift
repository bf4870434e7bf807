import DocSyncDownload
import Testing

/// The HTTPS-First mirror expansion (`AlternatePlan`): which URLs are tried, in which order, under each policy.
@Suite(.timeLimit(.minutes(5))) struct AlternatePlanTests {
    @Test func httpsFirstTriesTheUpgradeThenThePlainURL() {
        let plan = AlternatePlan.expand(["http://a.example/x.tgz", "https://b.example/x.tgz"], policy: .httpsFirst)
        #expect(
            plan == [
                Alternate(url: "https://a.example/x.tgz", isUpgrade: true), Alternate(url: "http://a.example/x.tgz"),
                Alternate(url: "https://b.example/x.tgz"),
            ])
    }

    @Test func httpsFirstKeepsAListedHTTPSMirrorAsAnOrdinaryOne() {
        let plan = AlternatePlan.expand(["https://a.example/x", "HTTP://a.example/x"], policy: .httpsFirst)
        #expect(plan == [Alternate(url: "https://a.example/x"), Alternate(url: "HTTP://a.example/x")])
    }

    @Test func httpsOnlyNeverKeepsPlainHTTP() {
        let plan = AlternatePlan.expand(["http://a.example:8080/x", "http://127.0.0.1/x"], policy: .httpsOnly)
        #expect(plan == [Alternate(url: "https://a.example:8080/x"), Alternate(url: "https://127.0.0.1/x")])
    }

    @Test func asGivenChangesNothing() {
        #expect(AlternatePlan.expand(["http://a.example/x"], policy: .asGiven) == [Alternate(url: "http://a.example/x")])
    }

    @Test(arguments: [
        ("http://localhost:8080/x", true), ("http://docs.localhost/x", true), ("http://127.0.0.1:80/x", true),
        ("http://192.168.1.5/x", true), ("http://[::1]:8080/x", true), ("http://user@10.0.0.1/x", true),
        ("http://example.org/x", false), ("http://8.8.8.8/x", false), ("http://[2001:db8::1]/x", false),
    ])
    func localHostsStayPlainUnderHTTPSFirst(url: String, local: Bool) {
        #expect(AlternatePlan.isLocal(url) == local, "\(url)")
        let plan = AlternatePlan.expand([url], policy: .httpsFirst)
        #expect(plan.count == (local ? 1 : 2), "\(plan)")
        #expect(AlternatePlan.expand([url], policy: .httpsFirst, upgradeLocal: true).count == 2)
    }
}
