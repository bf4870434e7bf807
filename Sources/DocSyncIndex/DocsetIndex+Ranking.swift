import DocSyncSupport

/// One search's ranking, split over the library's pool when it searches many entries: each part ranks its share of
/// the docsets (`Ranker.rank(_:only:)`, balanced by entries) and the best `limit` of the parts' best `limit` are the
/// answer — the same hits in the same order as one ranking of every docset, since candidates are totally ordered
/// (`Ranker.Candidate.precedes`) and every docset is in exactly one part.
extension DocsetIndex {
    /// Docsets of at least this many entries in all are ranked in parts: one part per `splitEntries` entries, up to
    /// the pool's threads. A part's fixed cost (queueing, a thread's wake-up, its own bound on what still ranks) is
    /// tens of microseconds; a search over this many entries that scans the tail (a whole name with few hits)
    /// takes milliseconds.
    package static let defaultSplitEntries = 2_500_000

    /// The best `limit` candidates for `needle` across `indexes` (types filtered by `types`), best first.
    func ranked(_ needle: [UInt8], limit: Int, types: Set<String>, _ indexes: [DerivedIndex]) -> [Ranker.Candidate] {
        let total = indexes.reduce(0) { $0 + $1.entryCount }
        let pool = BlockingPool.shared
        let parts = min(pool.threads, total / max(1, splitEntries), indexes.count)
        guard parts > 1 else {
            let scratch = takeScratch()
            defer { giveBack(scratch) }
            return Ranker(needle: needle, limit: limit, types: types, scratch: scratch).rank(indexes)
        }
        let shares = Self.shares(indexes.map(\.entryCount), parts: parts)
        let results = shares.map { RankedPart(scratch: takeScratch(), docsets: $0) }
        pool.split(parts) { part in
            let result = results[part]
            result.candidates = Ranker(needle: needle, limit: limit, types: types, scratch: result.scratch)
                .rank(indexes, only: result.docsets)
        }
        for result in results { giveBack(result.scratch) }
        let merged = results.flatMap(\.candidates).sorted(by: Ranker.Candidate.precedes)
        return Array(merged.prefix(limit))
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
