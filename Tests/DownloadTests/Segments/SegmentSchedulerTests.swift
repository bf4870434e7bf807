import DocSyncSupport
import Testing

@testable import DocSyncDownload

/// Scheduling: lowest missing offset first, work stealing at chunk boundaries in proportion to rates,
/// failed connections' ranges reassigned, per-mirror throughput and the per-host limit feeding the mirror choice.
@Suite(.timeLimit(.minutes(10))) struct SegmentSchedulerTests {
    static let chunk: Int64 = 8
    static let hosts = ["a:1", "b:1"]

    /// A scheduler over `count` segments of `size` bytes (chunk 8).
    static func scheduler(
        segments count: Int = 4, size: Int64 = 32, hosts: [String] = hosts, perHost: Int = 4
    ) -> SegmentScheduler {
        let ranges = (0..<count).map { (range: Int64($0) * size..<Int64($0 + 1) * size, done: Int64($0) * size) }
        return SegmentScheduler(
            length: Int64(count) * size, chunkSize: chunk, ranges: ranges, hosts: hosts, perHost: perHost)
    }

    @Test func lowestMissingOffsetFirst() {
        var s = Self.scheduler()
        let starts = (0..<3).compactMap { s.assign(connection: $0, now: 0)?.segment }
        #expect(starts == [0, 32, 64])
        s.advance(connection: 0, to: 32)  // segment 0 done
        s.release(connection: 0, now: 1)
        #expect(s.assign(connection: 0, now: 1)?.segment == 96)
        #expect(s.contiguousDone == 32)
    }

    @Test func aFailedConnectionsRangeIsReassignedFromWhereItStopped() {
        var s = Self.scheduler(segments: 2)
        _ = s.assign(connection: 0, now: 0)
        _ = s.assign(connection: 1, now: 0)
        #expect(s.claim(connection: 0, at: 0, count: 12) == 12)
        s.advance(connection: 0, to: 12)
        s.release(connection: 0, now: 1)  // dropped mid-segment
        let again = s.assign(connection: 2, now: 1)
        #expect(again?.segment == 0)
        #expect(again?.from == 12)
        #expect(again?.to == 32)
    }

    @Test func stealingSplitsTheSlowestRemainingRangeAtAChunkBoundary() {
        var s = Self.scheduler(segments: 1, size: 160)
        _ = s.assign(connection: 0, now: 0)
        #expect(s.claim(connection: 0, at: 0, count: 20) == 20)
        s.advance(connection: 0, to: 20)
        guard let stolen = s.assign(connection: 1, now: 1) else {
            Issue.record("an idle connection must steal")
            return
        }
        #expect(stolen.from % Self.chunk == 0)
        #expect(stolen.from > 20)
        #expect(stolen.to == 160)
        #expect(s.end(of: 0) == stolen.from)
        // The owner may not write past the new end; the new owner starts exactly there.
        #expect(s.claim(connection: 0, at: 20, count: 1000) == stolen.from - 20)
        #expect(s.segments.map(\.start) == [0, stolen.from])
    }

    @Test func stealingNeverCutsBelowClaimedBytes() {
        var s = Self.scheduler(segments: 1, size: 64)
        _ = s.assign(connection: 0, now: 0)
        #expect(s.claim(connection: 0, at: 0, count: 30) == 30)  // being written, not yet advanced
        let stolen = s.assign(connection: 1, now: 1)
        #expect((stolen?.from ?? 0) >= 32)
    }

    @Test func nothingToStealWithinTheOwnersLastChunk() {
        var s = Self.scheduler(segments: 1, size: 32)
        _ = s.assign(connection: 0, now: 0)
        #expect(s.claim(connection: 0, at: 0, count: 20) == 20)
        s.advance(connection: 0, to: 20)
        #expect(s.assign(connection: 1, now: 1) == nil)
    }

    @Test func aTenTimesSlowerMirrorGetsOnlyASmallShare() {
        var s = SegmentScheduler(
            length: 800, chunkSize: Self.chunk, ranges: [(0..<800, 0)], hosts: ["fast:1", "slow:1"], perHost: 1)
        #expect(s.assign(connection: 0, now: 0)?.mirror == 0)
        #expect(s.claim(connection: 0, at: 0, count: 100) == 100)
        s.advance(connection: 0, to: 100)  // 100 B/s at t = 1
        s.alternates[1].bytes = 10  // the slow mirror's history: 10 B/s
        s.alternates[1].seconds = 1
        let stolen = s.assign(connection: 1, now: 1)
        #expect(stolen?.mirror == 1)
        let share = (stolen?.to ?? 0) - (stolen?.from ?? 0)
        #expect(share > 0 && share <= 80, "the slow mirror got \(share) of 700")
    }

    @Test func connectionsSpreadOverMirrorsAndFollowThroughput() {
        var s = Self.scheduler(segments: 8, size: 32)
        let alternates = (0..<4).compactMap { s.assign(connection: $0, now: 0)?.mirror }
        #expect(alternates.sorted() == [0, 0, 1, 1])
        // Alternate 1 turns out 4× faster: the next free connection goes there.
        for connection in 0..<4 {
            guard let assignment = s.segments.first(where: { $0.owner == connection }) else { continue }
            let bytes: Int64 = s.alternates[alternates[connection]].host == "b:1" ? 32 : 8
            _ = s.claim(connection: connection, at: assignment.start, count: bytes)
            s.advance(connection: connection, to: assignment.start + bytes)
        }
        for connection in 0..<4 { s.release(connection: connection, now: 1) }
        #expect((s.alternates[1].rate ?? 0) > (s.alternates[0].rate ?? 0))
        #expect(s.assign(connection: 0, now: 1)?.mirror == 1)
    }

    @Test func aLiveSlowTransferCountsTowardsItsMirrorsRate() {
        var s = Self.scheduler(segments: 8, size: 32, perHost: 4)
        #expect(s.assign(connection: 0, now: 0)?.mirror == 0)
        #expect(s.assign(connection: 1, now: 0)?.mirror == 1)
        _ = s.claim(connection: 0, at: 0, count: 4)
        s.advance(connection: 0, to: 4)  // mirror 0: 4 B/s, still running
        _ = s.claim(connection: 1, at: 32, count: 32)
        s.advance(connection: 1, to: 64)  // mirror 1: 32 B/s, done
        s.release(connection: 1, now: 1)
        // Alternate 0 is not "untried" while its slow transfer runs: the free connection goes to the fast mirror.
        #expect(s.assign(connection: 1, now: 1)?.mirror == 1)
    }

    @Test func perHostLimitAndExcludedMirrors() {
        var s = Self.scheduler(segments: 8, size: 32, hosts: ["same:1", "same:1"], perHost: 2)
        #expect(s.assign(connection: 0, now: 0) != nil)
        #expect(s.assign(connection: 1, now: 0) != nil)
        #expect(s.assign(connection: 2, now: 0) == nil)  // both mirrors are one host
        var t = Self.scheduler(segments: 8, size: 32)
        t.exclude(mirror: 0)
        let picks = (0..<3).compactMap { t.assign(connection: $0, now: 0)?.mirror }
        #expect(picks == [1, 1, 1])
        t.exclude(mirror: 1)
        #expect(t.assign(connection: 5, now: 0) == nil)
        #expect(!t.hasAdmittedAlternate)
    }

    @Test func completedNeighboursMergeAndThePrefixGrows() {
        var s = Self.scheduler(segments: 3, size: 16)
        for connection in 0..<3 { _ = s.assign(connection: connection, now: 0) }
        for (connection, start) in [(1, Int64(16)), (0, 0)] {
            _ = s.claim(connection: connection, at: start, count: 16)
            s.advance(connection: connection, to: start + 16)
            s.release(connection: connection, now: 1)
        }
        #expect(s.contiguousDone == 32)
        #expect(s.segments.count == 2)
        #expect(!s.isComplete)
    }
}
