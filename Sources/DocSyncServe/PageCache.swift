import NIOCore
import Synchronization

/// Pages inflated from tarix stores, kept for the next request: a least-recently-used cache bounded in bytes (each
/// entry charged its buffer's allocated capacity plus its key), keyed by version folder and page
/// (`NAME@ID/page`). A version's pages never change, so entries are never stale: eviction is the only removal.
/// A page larger than an eighth of the budget is not kept (one big asset must not flush every page). A hit is the
/// kept `ByteBuffer` itself (shared storage, no copy). Thread-safe.
final class PageCache: Sendable {
    private struct Node {
        var key: String
        var value: ByteBuffer
        var cost: Int
        var newer = -1
        var older = -1
    }

    private struct State {
        var slots: [String: Int] = [:]
        var nodes: [Node] = []
        var free: [Int] = []
        /// The most and least recently used nodes (-1: none).
        var newest = -1
        var oldest = -1
        var bytes = 0
        var hits = 0
        var misses = 0

        mutating func unlink(_ slot: Int) {
            let node = nodes[slot]
            if node.newer >= 0 { nodes[node.newer].older = node.older } else { newest = node.older }
            if node.older >= 0 { nodes[node.older].newer = node.newer } else { oldest = node.newer }
            nodes[slot].newer = -1
            nodes[slot].older = -1
        }

        mutating func pushNewest(_ slot: Int) {
            nodes[slot].older = newest
            nodes[slot].newer = -1
            if newest >= 0 { nodes[newest].newer = slot }
            newest = slot
            if oldest < 0 { oldest = slot }
        }

        mutating func remove(_ slot: Int) {
            unlink(slot)
            bytes -= nodes[slot].cost
            slots[nodes[slot].key] = nil
            nodes[slot].value = ByteBuffer()
            nodes[slot].key = ""
            free.append(slot)
        }
    }

    /// The budget in bytes.
    let capacity: Int
    private let state = Mutex(State())

    /// A cache of at most `capacity` bytes (0: keeps nothing).
    init(capacity: Int) { self.capacity = max(0, capacity) }

    /// The bytes charged now (never above ``capacity``).
    var bytes: Int { state.withLock { $0.bytes } }
    /// Pages kept now.
    var count: Int { state.withLock { $0.slots.count } }
    /// Lookups answered from the cache, and not, since it was made.
    var hitsAndMisses: (hits: Int, misses: Int) { state.withLock { ($0.hits, $0.misses) } }

    /// The page kept under `key`, now the most recently used; nil when not kept.
    func get(_ key: String) -> ByteBuffer? {
        state.withLock { state in
            guard let slot = state.slots[key] else {
                state.misses += 1
                return nil
            }
            state.hits += 1
            state.unlink(slot)
            state.pushNewest(slot)
            return state.nodes[slot].value
        }
    }

    /// ``get(_:)`` for a lookup that is retried when it misses (the event-loop fast path, which hands a miss to the
    /// async route, whose ``get(_:)`` counts it): a hit is counted, a miss is not.
    func getCountingHitsOnly(_ key: String) -> ByteBuffer? {
        state.withLock { state in
            guard let slot = state.slots[key] else { return nil }
            state.hits += 1
            state.unlink(slot)
            state.pushNewest(slot)
            return state.nodes[slot].value
        }
    }

    /// Keeps `value` under `key` (replacing what was there), dropping the least recently used pages until the
    /// budget holds; a page over an eighth of the budget is not kept.
    func put(_ key: String, _ value: ByteBuffer) {
        let cost = value.capacity + key.utf8.count + 64
        guard cost <= capacity / 8 else { return }
        state.withLock { state in
            if let slot = state.slots[key] { state.remove(slot) }
            while state.bytes + cost > capacity, state.oldest >= 0 { state.remove(state.oldest) }
            let node = Node(key: key, value: value, cost: cost)
            let slot: Int
            if let reused = state.free.popLast() {
                slot = reused
                state.nodes[slot] = node
            } else {
                slot = state.nodes.count
                state.nodes.append(node)
            }
            state.slots[key] = slot
            state.pushNewest(slot)
            state.bytes += cost
        }
    }
}
