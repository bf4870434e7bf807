import DocSyncSupport

/// One search's ranking, its tail split over the library's pool when it searches many entries: the exact and prefix
/// matches of every docset first (a binary search each: a millisecond over 250 docsets), and only when they leave
/// room, the substring and fuzzy scans in parts, each part its share of the docsets (balanced by entries) seeded with
/// those matches (`Ranker.rank(_:only:stages:seed:)`). The answer is the best `limit` of the exact and prefix matches
/// and the parts' substring and fuzzy candidates: the same hits in the same order as one ranking of every docset,
/// since candidates are totally ordered (`Ranker.Candidate.precedes`), every docset is in exactly one part, and a
/// part's best `limit` holds every one of its candidates that is among the best `limit` of all.
extension DocsetIndex {
    /// Docsets of at least this many entries in all have their tail ranked in parts: one part per `splitEntries`
    /// entries, up to the pool's threads. A part's fixed cost (queueing, a thread's wake-up, its own bound on what
    /// still ranks) is tens of microseconds; a tail scan over this many entries (a whole name with few hits) takes
    /// milliseconds.
    package static let defaultSplitEntries = 2_500_000

    /// The best `limit` candidates for `needle` across `indexes` (types filtered by `types`), best first.
    func ranked(_ needle: [UInt8], limit: Int, types: Set<String>, _ indexes: [DerivedIndex]) -> [Ranker.Candidate] {
        let total = indexes.reduce(0) { $0 + $1.entryCount }
        let pool = BlockingPool.shared
        let parts = min(pool.threads, total / max(1, splitEntries), indexes.count)
        let scratch = takeScratch()
        defer { giveBack(scratch) }
        let ranker = Ranker(needle: needle, limit: limit, types: types, scratch: scratch)
        guard parts > 1 else { return ranker.rank(indexes) }
        let prefixes = ranker.rank(indexes, stages: .prefixes)
        guard prefixes.count < limit else { return prefixes }
        let shares = Self.shares(indexes.map(\.entryCount), parts: parts)
        let results = shares.map { RankedPart(scratch: takeScratch(), docsets: $0) }
        pool.split(parts) { part in
            let result = results[part]
            result.candidates = Ranker(needle: needle, limit: limit, types: types, scratch: result.scratch)
                .rank(indexes, only: result.docsets, stages: .tail, seed: prefixes)
        }
        for result in results { giveBack(result.scratch) }
        let tails = results.flatMap { $0.candidates.filter { $0.kind >= .substring } }
        return Array((prefixes + tails).sorted(by: Ranker.Candidate.precedes).prefix(limit))
    }

    /// The docsets (places) of each of `parts` parts, ascending, the largest given first to the part with the fewest
    /// entries so far.
    static func shares(_ entries: [Int], parts: Int) -> [[Int]] {
        var shares = [[Int]](repeating: [], count: parts)
        var load = [Int](repeating: 0, count: parts)
        for d in entries.indices.sorted(by: { (entries[$0], $1) > (entries[$1], $0) }) {
            let lightest = load.indices.min { (load[$0], $0) < (load[$1], $1) }!
            shares[lightest].append(d)
            load[lightest] += entries[d]
        }
        return shares.map { $0.sorted() }
    }
}

/// One part of a split ranking: its docsets and scan buffers, and its best candidates once ranked.
///
/// `@unchecked Sendable`: `candidates` is written by the one thread that runs the part, and read by the searching
/// thread only after `BlockingPool.split` returned (its lock orders the two).
private final class RankedPart: @unchecked Sendable {
    let scratch: SearchScratch
    let docsets: [Int]
    var candidates: [Ranker.Candidate] = []

    init(scratch: SearchScratch, docsets: [Int]) {
        self.scratch = scratch
        self.docsets = docsets
    }
}
