import NIOCore
import Synchronization

/// Pages inflated from tarix stores, kept for the next request, keyed by version folder and page (`NAME@ID/page`).
/// A version's pages never change, so entries are never stale: eviction is the only removal.
///
/// Bounded in bytes, each entry charged what it holds: its bytes in an array of exactly that length (one `malloc`
/// of the page's size; a `ByteBuffer` would round its storage up to a power of two, about 1.44× the bytes on
/// average for pages of 2–64 KiB), its key and 64 bytes of bookkeeping. A hit shares that array (copy-on-write:
/// nothing is copied per request; the server writes it to the socket from there). A page larger than an eighth of
/// the budget is not kept (one big asset must not flush every page).
///
/// Policy: CLOCK for the victim (a page read since the hand last passed gets a second chance) with an admission
/// rule (TinyLFU's, made size-aware as GreedyDual-Size-Frequency is): a page inflated while the budget is full
/// replaces victims only if it is worth more per byte kept than each of them, a page's worth being how often it
/// was requested lately (a count-min sketch: 4 rows of 4-bit counts, halved every ten widths of requests so that
/// old popularity fades) times what a miss costs, its size plus a fixed ``missOverhead`` (lookup, header, read
/// and task switch). A scan — every page read once in turn, as a crawler or a benchmark reads — then leaves the
/// kept pages in place instead of cycling all of them out as LRU does (LRU hits nothing when the set is larger
/// than the budget), and among pages read equally often the smaller ones stay (more hits in the same bytes); a
/// page read more often than others displaces them. Thread-safe.
final class PageCache: Sendable {
    private struct Entry {
        var key: String
        var hash: Int
        var bytes: [UInt8]
        var cost: Int
        var referenced = false
    }

    private struct State {
        var slots: [String: Int] = [:]
        /// The CLOCK's ring (nil: a free slot, listed in `free`).
        var ring: [Entry?] = []
        var free: [Int] = []
        var hand = 0
        var bytes = 0
        var hits = 0
        var misses = 0
        var rejected = 0
        var sketch: FrequencySketch

        mutating func remove(_ slot: Int) {
            guard let entry = ring[slot] else { return }
            bytes -= entry.cost
            slots[entry.key] = nil
            ring[slot] = nil
            free.append(slot)
        }

        mutating func insert(_ entry: Entry) {
            let slot: Int
            if let reused = free.popLast() {
                slot = reused
                ring[slot] = entry
            } else {
                slot = ring.count
                ring.append(entry)
            }
            slots[entry.key] = slot
            bytes += entry.cost
        }

        /// Victims freeing room for a page of `size` bytes charged `cost` within `capacity`, each worth less per byte
        /// than it (requested `frequency` times); nil when the hand meets one worth as much or more (the newcomer
        /// is not admitted).
        mutating func victims(for cost: Int, size: Int, frequency: Int, capacity: Int) -> [Int]? {
            var chosen: [Int] = []
            var freed = 0
            var steps = 0
            let limit = 2 * ring.count + 1
            while bytes - freed + cost > capacity {
                guard steps < limit, !ring.isEmpty else { return nil }
                steps += 1
                let slot = hand
                hand = (hand + 1) % ring.count
                guard let entry = ring[slot], !chosen.contains(slot) else { continue }
                if entry.referenced {
                    ring[slot]?.referenced = false
                    continue
                }
                // The victim's worth per byte vs the newcomer's: frequency × (size + overhead) / cost.
                let victimSize = entry.bytes.count + PageCache.missOverhead
                let victimWorth = sketch.estimate(entry.hash) * victimSize * cost
                if victimWorth >= frequency * (size + PageCache.missOverhead) * entry.cost { return nil }
                chosen.append(slot)
                freed += entry.cost
            }
            return chosen
        }
    }

    /// What a miss costs beyond inflating the page's bytes, in bytes of inflate (about 4 µs: the lookup, the
    /// header, the read and the task switch), in a page's worth.
    static let missOverhead = 4096

    /// The budget in bytes.
    let capacity: Int
    private let state: Mutex<State>

    /// A cache of at most `capacity` bytes (0: keeps nothing).
    init(capacity: Int) {
        self.capacity = max(0, capacity)
        state = Mutex(State(sketch: FrequencySketch(expectedEntries: max(0, capacity) / 512)))
    }

    /// The bytes charged now (never above ``capacity``).
    var bytes: Int { state.withLock { $0.bytes } }
    /// Pages kept now.
    var count: Int { state.withLock { $0.slots.count } }
    /// Requests answered from the cache, and pages inflated because they were not in it (``put(_:_:)`` calls),
    /// since it was made.
    var hitsAndMisses: (hits: Int, misses: Int) { state.withLock { ($0.hits, $0.misses) } }
    /// Inflated pages not kept because a victim was worth as much (the admission rule).
    var rejected: Int { state.withLock { $0.rejected } }

    /// The page kept under `key`, shared (counted as requested once more, and kept through the hand's next pass);
    /// nil when not kept.
    func get(_ key: String) -> [UInt8]? {
        guard capacity > 0 else { return nil }
        let hash = key.hashValue
        return state.withLock { state -> [UInt8]? in
            guard let slot = state.slots[key] else { return nil }
            state.hits += 1
            state.sketch.increment(hash)
            state.ring[slot]?.referenced = true
            return state.ring[slot]?.bytes
        }
    }

    /// Offers `value`, just inflated because ``get(_:)`` missed, under `key`: counted as requested once more, and
    /// kept (its bytes copied into an array of their length) when it fits the budget, or when the victims the hand
    /// picks were all requested less often.
    func put(_ key: String, _ value: ByteBuffer) {
        offer(key, count: value.readableBytes) {
            value.withUnsafeReadableBytes { [UInt8](UnsafeRawBufferPointer($0)) }
        }
    }

    /// ``put(_:_:)`` for a page inflated into an array of its length: kept as it is, without a copy.
    func put(_ key: String, bytes: [UInt8]) {
        offer(key, count: bytes.count) { bytes }
    }

    private func offer(_ key: String, count: Int, bytes: () -> [UInt8]) {
        let cost = count + key.utf8.count + 64
        guard capacity > 0 else { return }
        let hash = key.hashValue
        state.withLock { state in
            state.misses += 1
            state.sketch.increment(hash)
            guard cost <= capacity / 8, state.slots[key] == nil else { return }
            let frequency = state.sketch.estimate(hash)
            guard
                let victims = state.victims(for: cost, size: count, frequency: frequency, capacity: capacity)
            else {
                state.rejected += 1
                return
            }
            for slot in victims { state.remove(slot) }
            state.insert(Entry(key: key, hash: hash, bytes: bytes(), cost: cost))
        }
    }
}
