/// Which byte range each connection of a segmented download fetches next, and from which mirror. Pure: no clock,
/// no I/O (times are passed in), so every rule is a table test.
///
/// - Lowest missing offset first: a free connection takes the unowned segment nearest the start, so the durable
///   prefix that streaming install reads keeps growing.
/// - Work stealing: with no unowned segment left, a free connection splits the remaining range of the segment that
///   would finish last, at a chunk boundary, in proportion to the two connections' expected rates.
/// - Mirrors: a free connection goes to the admitted mirror with the best throughput per active connection (an
///   untried mirror counts as the fastest, so each is tried), never beyond `perHost` connections to one host.
struct SegmentScheduler: Sendable, Equatable {
    struct Segment: Sendable, Equatable {
        /// Stable identity of the segment: its first byte (always a chunk boundary).
        var start: Int64
        var end: Int64
        /// Bytes `start..<done` are written.
        var done: Int64
        /// Bytes `start..<claimed` are written or being written by the owner; a split never cuts below it.
        var claimed: Int64
        var owner: Int?

        var isComplete: Bool { done >= end }
    }

    struct Assignment: Sendable, Equatable {
        var connection: Int
        var segment: Int64
        /// Fetch from here (the segment's `done`) …
        var from: Int64
        /// … to here (its end when assigned; a steal may lower it later).
        var to: Int64
        var mirror: Int
    }

    struct Alternate: Sendable, Equatable {
        var host: String
        var admitted = true
        /// False until a mirror other than the first passed its admission window (`SegmentProof`).
        var proven = true
        var active = 0
        /// Bytes and seconds of transfers from this mirror, finished ones and the live ones' share so far.
        var bytes: Int64 = 0
        var seconds: Double = 0

        var rate: Double? { seconds > 0.05 && bytes > 0 ? Double(bytes) / seconds : nil }
    }

    private struct Connection: Sendable, Equatable {
        var segment: Int64
        var mirror: Int
        var since: Double
        var bytes: Int64 = 0
    }

    let length: Int64
    let chunkSize: Int64
    let perHost: Int
    private(set) var segments: [Segment]
    /// Per mirror: admission, live connections and throughput history (settable for tests).
    var alternates: [Alternate]
    private var connections: [Int: Connection] = [:]

    /// `ranges` tile `0..<length` in order (a fresh plan, or the journal's extents with `done` from each).
    init(length: Int64, chunkSize: Int64, ranges: [(range: Range<Int64>, done: Int64)], hosts: [String], perHost: Int) {
        self.length = length
        self.chunkSize = chunkSize
        self.perHost = max(1, perHost)
        segments = ranges.map {
            Segment(start: $0.range.lowerBound, end: $0.range.upperBound, done: $0.done, claimed: $0.done)
        }
        alternates = hosts.map { Alternate(host: $0) }
    }

    var isComplete: Bool { segments.allSatisfy(\.isComplete) }
    var activeConnections: Int { connections.count }
    var hasAdmittedAlternate: Bool { alternates.contains(where: \.admitted) }

    /// End of the written prefix from byte 0 (what `done` covers without a gap).
    var contiguousDone: Int64 { Self.prefix(segments.map { ($0.start, $0.end, $0.done) }) }

    /// The end of the gap-free prefix of `extents` (start, end, done), sorted by start.
    static func prefix(_ extents: [(start: Int64, end: Int64, done: Int64)]) -> Int64 {
        var end: Int64 = 0
        for extent in extents {
            guard extent.start == end else { break }
            end = extent.done
            if extent.done < extent.end { break }
        }
        return end
    }

    func segment(_ start: Int64) -> Segment? { segments.first { $0.start == start } }

    // MARK: - Assignment

    /// Gives free connection `connection` a range: the lowest unowned missing segment, else a stolen half of the
    /// slowest-finishing one. Nil when no mirror has room or nothing is worth splitting.
    mutating func assign(connection: Int, now: Double) -> Assignment? {
        guard connections[connection] == nil, let mirror = chooseAlternate(now: now) else { return nil }
        if let index = segments.firstIndex(where: { $0.owner == nil && !$0.isComplete }) {
            return start(connection, at: index, mirror: mirror, now: now)
        }
        guard let index = stealTarget(for: mirror, now: now) else { return nil }
        return start(connection, at: index, mirror: mirror, now: now)
    }

    private mutating func start(_ connection: Int, at index: Int, mirror: Int, now: Double) -> Assignment {
        segments[index].owner = connection
        segments[index].claimed = segments[index].done
        connections[connection] = Connection(segment: segments[index].start, mirror: mirror, since: now)
        alternates[mirror].active += 1
        let segment = segments[index]
        return Assignment(
            connection: connection, segment: segment.start, from: segment.done, to: segment.end, mirror: mirror)
    }

    /// Splits the owned segment that would finish last; returns the index of the new (upper) part, unowned.
    private mutating func stealTarget(for mirror: Int, now: Double) -> Int? {
        var best: (index: Int, finish: Double, split: Int64)?
        for (index, segment) in segments.enumerated() {
            guard let owner = segment.owner, let connection = connections[owner] else { continue }
            let remaining = segment.end - segment.claimed
            guard remaining >= chunkSize / 2 else { continue }
            let ownerRate = rate(of: connection, now: now) ?? rate(ofAlternate: connection.mirror, now: now) ?? 1
            let idleRate = rate(ofAlternate: mirror, now: now) ?? ownerRate
            let ownerShare = Double(remaining) * ownerRate / (ownerRate + idleRate)
            var split = SplitPolicy.roundUp(segment.claimed + Int64(ownerShare), to: chunkSize)
            split = max(split, SplitPolicy.roundUp(segment.claimed + 1, to: chunkSize))
            guard segment.end - split >= max(1, chunkSize / 4) else { continue }  // worth a request
            let finish = Double(remaining) / max(ownerRate, 1)
            if best == nil || finish > best!.finish { best = (index, finish, split) }
        }
        guard let best else { return nil }
        let upper = Segment(
            start: best.split, end: segments[best.index].end, done: best.split, claimed: best.split, owner: nil)
        segments[best.index].end = best.split
        segments.insert(upper, at: best.index + 1)
        return best.index + 1
    }

    private func chooseAlternate(now: Double) -> Int? {
        var hostLoad: [String: Int] = [:]
        for mirror in alternates { hostLoad[mirror.host, default: 0] += mirror.active }
        let rates = alternates.indices.map { rate(ofAlternate: $0, now: now) }
        let fastest = rates.compactMap { $0 }.max() ?? 1
        var best: (index: Int, score: Double)?
        for (index, mirror) in alternates.enumerated()
        where mirror.admitted && mirror.proven && hostLoad[mirror.host, default: 0] < perHost {
            let score = (rates[index] ?? fastest * 2) / Double(mirror.active + 1)
            if best == nil || score > best!.score { best = (index, score) }
        }
        return best?.index
    }

    /// A mirror's throughput per connection: its finished transfers and the live ones so far.
    func rate(ofAlternate index: Int, now: Double) -> Double? {
        var bytes = alternates[index].bytes
        var seconds = alternates[index].seconds
        for connection in connections.values where connection.mirror == index {
            bytes += connection.bytes
            seconds += max(0, now - connection.since)
        }
        return seconds > 0.05 && bytes > 0 ? Double(bytes) / seconds : nil
    }

    private func rate(of connection: Connection, now: Double) -> Double? {
        let seconds = now - connection.since
        return seconds > 0.05 && connection.bytes > 0 ? Double(connection.bytes) / seconds : nil
    }

    // MARK: - Progress

    /// The owner is about to write `count` bytes at `position`: how many it may write (the segment's end may have
    /// moved down after a steal). Claims them, so no split cuts below.
    mutating func claim(connection: Int, at position: Int64, count: Int64) -> Int64 {
        guard let owned = connections[connection], let index = segments.firstIndex(where: { $0.start == owned.segment }),
            segments[index].owner == connection, position == segments[index].done
        else { return 0 }
        let allowed = max(0, min(count, segments[index].end - position))
        segments[index].claimed = position + allowed
        return allowed
    }

    /// The owner wrote up to `position`.
    mutating func advance(connection: Int, to position: Int64) {
        guard var owned = connections[connection],
            let index = segments.firstIndex(where: { $0.start == owned.segment })
        else { return }
        owned.bytes += position - segments[index].done
        connections[connection] = owned
        segments[index].done = position
        segments[index].claimed = max(segments[index].claimed, position)
    }

    /// The segment's current end for its owner (lowered by a steal).
    func end(of connection: Int) -> Int64? {
        guard let owned = connections[connection] else { return nil }
        return segment(owned.segment)?.end
    }

    /// The connection's transfer ended (done, failed or dropped): its segment becomes free, its time counts
    /// towards its mirror's throughput.
    mutating func release(connection: Int, now: Double) {
        guard let owned = connections.removeValue(forKey: connection) else { return }
        if let index = segments.firstIndex(where: { $0.start == owned.segment }) {
            segments[index].owner = nil
            segments[index].claimed = segments[index].done
        }
        alternates[owned.mirror].active -= 1
        alternates[owned.mirror].bytes += owned.bytes
        alternates[owned.mirror].seconds += max(0, now - owned.since)
        mergeCompleted()
    }

    /// Whether the mirror may take segments yet (see `SegmentProof`).
    mutating func setProven(_ proven: Bool, mirror: Int) { alternates[mirror].proven = proven }

    /// Excludes a mirror from the rest of this download (its live transfer ends on its own).
    mutating func exclude(mirror: Int) { alternates[mirror].admitted = false }

    /// A written window of `count` bytes (the end of the segment with the most written), to prove a mirror with.
    func proofWindow(count: Int64) -> Range<Int64>? {
        let best = segments.filter { $0.done - $0.start >= count }.max { $0.done - $0.start < $1.done - $1.start }
        return best.map { ($0.done - count)..<$0.done }
    }

    /// Adjacent complete unowned segments need no separate record.
    private mutating func mergeCompleted() {
        var merged: [Segment] = []
        for segment in segments {
            if var last = merged.last, last.isComplete, segment.isComplete, last.owner == nil, segment.owner == nil,
                last.end == segment.start
            {
                last.end = segment.end
                last.done = segment.end
                last.claimed = segment.end
                merged[merged.count - 1] = last
            } else {
                merged.append(segment)
            }
        }
        segments = merged
    }
}
