import DocSync
import DocSyncServe
import TestSupport
import Testing

/// ``ServedDocsets``: the view a server answers from follows a sync's flip, whether the root is re-read in the
/// background (a view asked for often, as on a busy server) or by the caller (a view not asked for in a while).
@Suite(.timeLimit(.minutes(10))) struct ServedDocsetsTests {
    @Test func aViewAskedForOftenFollowsAFlip() async throws {
        let h = try ServeHarness()
        defer { h.remove() }
        let v1 = try await h.install("A", version: "1")
        let docsets = ServedDocsets(engine: h.engine, refreshInterval: .milliseconds(200))
        #expect(docsets.snapshot().docset("A")?.path == v1.path)
        let v2 = try await h.install("A", version: "2")
        // Asked every 10 ms: the view is re-read in the background, and answered from meanwhile.
        try await Poll.until("the view to show version 2") { () async -> Bool in
            docsets.snapshot().docset("A")?.path == v2.path
        }
        #expect(docsets.snapshot().docsets.map(\.name) == ["A"])
    }

    @Test func aViewNotAskedForInAWhileIsReReadByTheCaller() async throws {
        let h = try ServeHarness()
        defer { h.remove() }
        let v1 = try await h.install("A", version: "1")
        let docsets = ServedDocsets(engine: h.engine, refreshInterval: .milliseconds(50))
        #expect(docsets.snapshot().docset("A")?.path == v1.path)
        let v2 = try await h.install("A", version: "2")
        let installed = ContinuousClock.now
        try await Task.sleep(for: .milliseconds(100))
        // Past twice the interval since the last read (the install took at least as long as the sleep after it):
        // this call reads the root itself.
        #expect(ContinuousClock.now - installed >= .milliseconds(100))
        #expect(docsets.snapshot().docset("A")?.path == v2.path)
    }
}
