import DocSyncHTTP

/// Watches the first response of a fresh single-connection download (a plain GET from byte 0) for whether the
/// segmented path should take over: the head must allow a split (`SplitPolicy`), and the connection must be slow
/// enough that more connections help (`probeBytes` not arriving within a quarter second at `singleConnectionAbove`
/// or faster). No extra request: a file that stays on one connection is simply downloaded.
final class SplitProbe {
    private let options: SegmentOptions
    private let expectedLength: Int64?
    /// Set when the head allows a split.
    private(set) var identity: SegmentIdentity?
    /// True once the transfer was stopped to hand over to the segmented path.
    private(set) var handOver = false
    private var decided = false
    private var bytes = 0
    private var started: Double?

    init(options: SegmentOptions, expectedLength: Int64?) {
        self.options = options
        self.expectedLength = expectedLength
    }

    /// The head of an accepted fresh response from byte 0.
    func consider(_ head: HTTPResponseHead) {
        guard !decided else { return }
        let decision = SplitPolicy.decide(
            head, connections: options.connections, minimumSegment: options.minimumSegment,
            expectedLength: expectedLength)
        if case .split(let identity) = decision { self.identity = identity } else { decided = true }
    }

    /// Body bytes arrived; false when the transfer should stop now and hand over.
    func received(_ count: Int) -> Bool {
        guard identity != nil, !decided else { return true }
        guard let above = options.singleConnectionAbove else { return stop() }
        let now = ProgressMeter.now()
        bytes += count
        let started = self.started ?? now
        self.started = started
        if bytes >= options.probeBytes, now > started {
            if Double(bytes) / (now - started) >= above {
                decided = true  // fast enough on its own: stay on this connection
                return true
            }
            return stop()
        }
        if now - started >= 0.25 { return stop() }
        return true
    }

    private func stop() -> Bool {
        decided = true
        handOver = true
        return false
    }
}
