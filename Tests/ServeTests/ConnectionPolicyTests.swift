import NIOCore
import NIOEmbedded
import Testing

@testable import DocSyncServe

/// The connection policy as pure parts: the budget `max_connections` gets under an open-file limit, each phase's
/// deadline, and the order in which idle connections make room.
@Suite(.timeLimit(.minutes(10))) struct ConnectionPolicyTests {
    @Test func theBudgetFitsTheOpenFileLimit() {
        // (configured, descriptors, remembered) → (evictAbove, acceptBelow)
        let table: [(Int, Int, Int, Int, Int)] = [
            (16_384, 65_536, 4096, 15_360, 16_384),  // the default, plenty of descriptors
            (16_384, 20_000, 4096, 14_790, 15_776),  // lowered to the descriptors left
            (16_384, 1024, 256, 600, 640),  // systemd's default soft limit, if it could not be raised
            (512, 65_536, 4096, 480, 512),
            (32, 65_536, 4096, 30, 32),
            (1, 65_536, 4096, 1, 1),
            (100, 150, 50, 15, 16),  // never below 16
        ]
        for (configured, descriptors, remembered, evict, accept) in table {
            let budget = ConnectionBudget.of(configured: configured, descriptors: descriptors, remembered: remembered)
            #expect(
                budget == ConnectionBudget(evictAbove: evict, acceptBelow: accept),
                "\(configured) under \(descriptors) (\(remembered) pages)")
        }
    }

    @Test func eachPhaseHasItsOwnDeadline() {
        let timeouts = ConnectionTimeouts(idle: .seconds(30), header: .seconds(10), body: .seconds(5))
        let t = NIODeadline.uptimeNanoseconds(1_000_000_000_000)
        let table: [(ConnectionTimeouts.Phase, NIODeadline?)] = [
            (.waiting(since: t), t + .seconds(30)),
            (.head(since: t), t + .seconds(10)),
            (.body(since: t), t + .seconds(5)),
            (.answering, nil),
        ]
        for (phase, deadline) in table { #expect(timeouts.deadline(phase) == deadline, "\(phase)") }
    }

    @Test func theConnectionIdleLongestMakesRoom() {
        let connections = IdleConnections(budget: ConnectionBudget(evictAbove: 3, acceptBelow: 4))
        let c = (0..<8).map { _ in EmbeddedChannel() }
        func same(_ a: (any Channel)?, _ b: EmbeddedChannel?) -> Bool {
            a.map(ObjectIdentifier.init) == b.map(ObjectIdentifier.init)
        }
        #expect(connections.opened(c[0]) == nil && connections.opened(c[1]) == nil && connections.opened(c[2]) == nil)
        connections.idle(c[0])  // answered again: now idle the shortest
        connections.busy(c[1])  // a request in progress: never chosen
        #expect(same(connections.opened(c[3]), c[2]), "the oldest idle one, never the new one")
        connections.closed(c[2])
        #expect(same(connections.opened(c[4]), c[0]))
        connections.closed(c[0])
        #expect(same(connections.opened(c[5]), c[3]))
        connections.closed(c[3])
        #expect(same(connections.opened(c[6]), c[4]))
        connections.closed(c[4])
        connections.busy(c[5])
        connections.busy(c[6])
        // Only busy connections besides the new one: none is closed (accepting pauses at acceptBelow instead).
        #expect(connections.opened(c[7]) == nil && connections.open == 4)
        // Many round trips leave no growth behind (stale entries are compacted).
        for _ in 0..<10_000 {
            connections.busy(c[7])
            connections.idle(c[7])
        }
        #expect(same(connections.opened(c[0]), c[7]) && connections.open == 5)
    }
}
