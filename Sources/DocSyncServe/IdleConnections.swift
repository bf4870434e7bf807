import NIOCore
import Synchronization

/// The server's open connections, and among them the idle ones (no request in progress: waiting for one, or
/// receiving its head) in the order they became idle, so that when ``ConnectionBudget/evictAbove`` are open a new
/// connection closes the one idle longest: a silent or trickling connection is closed first, never the new one, and
/// never one with a request in progress. Connections call in from their own event loops (a `Mutex`: nobody waits
/// long; each call is O(1) amortised: a FIFO with lazy deletion, compacted when half of it is stale).
final class IdleConnections: Sendable {
    private struct State {
        var open = 0
        /// The idle connections: their place in `order`.
        var idle: [ObjectIdentifier: UInt64] = [:]
        /// Idle connections by the time they became idle (entries whose sequence no longer matches `idle` are stale).
        var order = CircularBuffer<(sequence: UInt64, channel: any Channel)>()
        var next: UInt64 = 0
    }

    /// The event a connection chosen to make room gets on its event loop: it closes itself if still idle.
    struct MakeRoom: Sendable {}

    private let state = Mutex(State())
    let budget: ConnectionBudget

    init(budget: ConnectionBudget) {
        self.budget = budget
    }

    /// Connections open now.
    var open: Int { state.withLock { $0.open } }

    /// A connection opened (idle, with nothing read yet): returns the connection idle longest, no longer counted as
    /// idle, when more than ``ConnectionBudget/evictAbove`` are open; its owner closes it if still idle.
    func opened(_ channel: any Channel) -> (any Channel)? {
        state.withLock { state in
            state.open += 1
            var victim: (any Channel)?
            if state.open > budget.evictAbove { victim = Self.popOldest(&state) }
            Self.markIdle(channel, &state)
            return victim
        }
    }

    /// A connection closed.
    func closed(_ channel: any Channel) {
        state.withLock { state in
            state.open -= 1
            state.idle[ObjectIdentifier(channel)] = nil
            Self.compactIfStale(&state)
        }
    }

    /// A connection became idle (its request answered, nothing more in progress): idle longest of all now is
    /// every other idle connection.
    func idle(_ channel: any Channel) {
        state.withLock { Self.markIdle(channel, &$0) }
    }

    /// A connection got a request.
    func busy(_ channel: any Channel) {
        state.withLock { state in
            state.idle[ObjectIdentifier(channel)] = nil
            Self.compactIfStale(&state)
        }
    }

    private static func markIdle(_ channel: any Channel, _ state: inout State) {
        state.idle[ObjectIdentifier(channel)] = state.next
        state.order.append((state.next, channel))
        state.next += 1
        compactIfStale(&state)
    }

    private static func popOldest(_ state: inout State) -> (any Channel)? {
        while let first = state.order.popFirst() {
            let id = ObjectIdentifier(first.channel)
            if state.idle[id] == first.sequence {
                state.idle[id] = nil
                return first.channel
            }
        }
        return nil
    }

    private static func compactIfStale(_ state: inout State) {
        guard state.order.count > 64, state.order.count > 2 * state.idle.count else { return }
        let idle = state.idle
        state.order = CircularBuffer(state.order.filter { idle[ObjectIdentifier($0.channel)] == $0.sequence })
    }
}
