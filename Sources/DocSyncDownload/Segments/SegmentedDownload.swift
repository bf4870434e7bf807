import DocSyncHTTP
import DocSyncSupport

#if canImport(Glibc)
    import Glibc
#endif

/// One segmented run of `Downloader.download`: up to `connections` ranged transfers at once over the
/// mirrors, each response held to the download's identity, every segment's durable extent in a version-2 journal,
/// the whole file checked chunk by chunk and against the feed's SHA-256 before it is moved into place.
/// `.single` hands the download to the single-connection path (the first response does not allow a split, or a
/// version-1 partial exists).
final class SegmentedDownload: DownloadJobRunner {
    enum Outcome {
        case finished(DownloadResult)
        case single(String)
    }

    let job: DownloadJob

    var restarts = 0
    var attempts = 0
    var resumedFrom: Int64 = 0
    var faults: [AlternateFault] = []
    /// Per mirror: the validator its requests carry (nil: being admitted on the feed's SHA-256 without one).
    var validators: [Validator?] = []
    var readmitted: Set<Int> = []
    var originAlternate = 0
    /// The first mirror's first bytes, from the probe: the window other mirrors are admitted against before any
    /// segment is written.
    var probeWindow: (window: Range<Int64>, bytes: [UInt8])?

    init(_ job: DownloadJob) { self.job = job }

    var options: SegmentOptions { configuration.segments }

    /// Continues a segmented partial (a version-2 journal); `.single` when there is none.
    func resume() async throws(DownloadError) -> Outcome {
        guard let found = try resumable() else { return .single("no segmented partial") }
        resumedFrom = found.durableBytes
        return try await run(found)
    }

    /// Takes over a fresh download whose first response (from mirror `mirror`) allowed and needed a split; the
    /// bytes it made durable become the admission window for the other mirrors and the first segment's written
    /// extent (never fetched again), and the rest is fetched in segments.
    func start(_ identity: SegmentIdentity, mirror: Int) async throws(DownloadError) -> Outcome {
        originAlternate = mirror
        let size = Int(max(4096, configuration.overlap))
        if let partial = staging.readJournal(), partial.committed >= Int64(size) {
            let raw = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
            defer { raw.deallocate() }
            if (try? staging.read(into: raw, at: 0)) == true { probeWindow = (0..<Int64(size), Array(raw)) }
        }
        return try await run(try fresh(identity, keepingPrefix: true))
    }

    private func run(_ first: SegmentJournal) async throws(DownloadError) -> Outcome {
        var journal = first
        while true {
            try checkFreeSpace(needed: journal.identity.length - journal.durableBytes)
            let store = SegmentStore(
                staging: staging, journal: journal, hosts: request.alternates.map(Self.host(of:)),
                perHost: options.perHost, meter: meter, callback: request.committed)
            request.committed?(journal.contiguous)
            validators = request.alternates.map { _ in journal.identity.validator }
            if excludeAllButOrigin {
                for index in request.alternates.indices where index != originAlternate { store.exclude(mirror: index) }
            }
            let changed: String?
            do throws(DownloadError) { changed = try await transfer(store) } catch {
                store.closeCommits()
                store.prefixHasher.stop()
                throw error
            }
            store.closeCommits()
            if let reason = changed {  // the origin changed: start again under its new identity
                store.prefixHasher.stop()
                restarts += 1
                if restarts > configuration.retry.maxRestarts {
                    throw DownloadError(
                        .tooManyRestarts, url: request.alternates[originAlternate],
                        reason: "restarted from zero \(restarts - 1) times; last: \(reason)", isTransient: true)
                }
                switch await probe() {
                case .single(let why): return .single(why)
                case .split(let identity): journal = try fresh(identity)
                }
                continue
            }
            if let result = try finalize(store.journal, store: store) { return .finished(result) }
            journal = try fresh(store.identity)  // verification failed once: one fresh download from the origin
        }
    }

    // MARK: - Start

    /// Checklist A12: room for what is left, before asking for it.
    private func checkFreeSpace(needed: Int64) throws(DownloadError) {
        let available: Int64
        do throws(SystemError) { available = try configuration.freeSpace(staging.directory) } catch {
            throw .disk(error)
        }
        if needed + configuration.minFreeSpace > available {
            throw DownloadError(
                .insufficientSpace, url: request.alternates[originAlternate],
                reason: "\(needed) bytes needed in \(staging.directory), \(available) available", isTransient: true)
        }
    }

    /// A version-2 journal of this key whose partial is still there, cut back to what still verifies.
    private func resumable() throws(DownloadError) -> SegmentJournal? {
        guard let data = staging.readJournalBytes(), SegmentJournal.isSegmented(data)
        else { return nil }
        guard let journal = SegmentJournal(decoding: data), journal.key == key,
            journal.chunkSize == configuration.chunkSize, staging.partExists
        else { return nil }
        do throws(SystemError) {
            try staging.openPart()
            let verified = try staging.verifiedExtents(journal)
            if verified != journal { try staging.commit(encoded: verified.encoded()) }
            return verified
        } catch {
            throw .disk(error)
        }
    }

    /// Asks the first mirror for `bytes=0-`: the head decides whether a split is safe, the rate of the first
    /// `probeBytes` (dropped, at most a quarter second's worth) whether it is worth it.
    private func probe() async -> SplitDecision {
        attempts += 1
        let window = Int(max(4096, configuration.overlap))
        let probe = ProbeReceiver(
            limit: max(window, options.singleConnectionAbove == nil ? 0 : options.probeBytes), window: window)
        let http = HTTPRequest(
            url: request.alternates[0], headers: ["Range: bytes=0-", "Accept-Encoding: identity"],
            options: configuration.http)
        _ = await configuration.transport.perform(http, probe)
        guard let head = probe.head else { return .single("no answer to the first request") }
        originAlternate = 0
        probeWindow = probe.window.count == window ? (0..<Int64(window), probe.window) : nil
        let decision = SplitPolicy.decide(
            head, connections: options.connections, minimumSegment: options.minimumSegment,
            expectedLength: request.expectedLength)
        if case .split = decision, let above = options.singleConnectionAbove, let rate = probe.rate, rate >= above {
            return .single("one connection runs at \(Int(rate / 1e6)) MB/s: not the bottleneck")
        }
        return decision
    }

    /// A new partial for `identity`: truncated to 0, its journal durable before any byte is written.
    /// With `keepingPrefix`, the single connection's durable prefix stays as the first segment's written extent.
    private func fresh(_ identity: SegmentIdentity, keepingPrefix: Bool = false) throws(DownloadError)
        -> SegmentJournal
    {
        let ranges = SplitPolicy.plan(
            length: identity.length, chunkSize: configuration.chunkSize, minimumSegment: options.minimumSegment,
            connections: options.connections)
        let kept = keepingPrefix ? keptPrefix(of: identity, limit: ranges.first?.upperBound ?? 0) : KeptPrefix()
        var extents = ranges.map {
            SegmentJournal.Extent(
                start: $0.lowerBound, end: $0.upperBound, done: $0.lowerBound, chunkState: SHA256().savedState)
        }
        if kept.done > 0, !extents.isEmpty {
            extents[0].done = kept.done
            extents[0].chunkState = kept.chunkState
        }
        let journal = SegmentJournal(
            key: key, url: request.alternates[originAlternate], identity: identity, chunkSize: configuration.chunkSize,
            extents: extents, digests: kept.digests)
        do throws(SystemError) {
            try staging.openPart()
            try staging.truncate(to: kept.done, encoded: journal.encoded())
        } catch {
            throw .disk(error)
        }
        request.committed?(kept.done)
        resumedFrom = 0
        return journal
    }

    // MARK: - Finish

    /// Every chunk re-read and checked against its digest, the whole file against the feed's SHA-256, then moved into
    /// place (A13, I64). Nil when verification failed and one fresh download is worth a try.
    private func finalize(_ journal: SegmentJournal, store: SegmentStore) throws(DownloadError) -> DownloadResult? {
        let (digest, problem) = store.prefixHasher.finish(digests: journal.digests)
        let url = request.alternates[originAlternate]
        guard let digest else {
            try verificationFailed(problem ?? "the file on disk differs from the bytes received", url: url)
            return nil
        }
        if let expectedLength = request.expectedLength, expectedLength != journal.identity.length {
            try verificationFailed("length is \(journal.identity.length), expected \(expectedLength)", url: url)
            return nil
        }
        if let expected, expected != digest {
            try verificationFailed("SHA-256 is \(digest), expected \(expected)", url: url)
            return nil
        }
        do throws(SystemError) { try staging.finalize(to: request.destination) } catch { throw .disk(error) }
        meter.report(bytes: journal.identity.length, total: journal.identity.length, force: true)
        return DownloadResult(
            url: journal.url, bytes: journal.identity.length, sha256: digest.description, resumedFrom: resumedFrom,
            attempts: attempts, seconds: meter.elapsed, path: request.destination,
            overPlainHTTP: request.alternates.contains { $0.lowercased().hasPrefix("http://") }, alternateFaults: faults)
    }

    /// Deletes the partial; a download that used several mirrors earns one fresh try from the origin alone.
    private var verificationRetried = false

    private func verificationFailed(_ reason: String, url: String) throws(DownloadError) {
        let error = DownloadError(.verification, url: url, reason: reason, isTransient: false)
        do throws(SystemError) { try staging.discard() } catch { throw .disk(error) }
        let mixed = request.alternates.count > 1 && faults.count < request.alternates.count - 1
        guard mixed, !verificationRetried else {
            var failure = error
            failure.alternateFaults = faults
            throw failure
        }
        verificationRetried = true
        let faulted = Set(faults.map(\.url))
        for (index, mirror) in request.alternates.enumerated() where index != originAlternate && !faulted.contains(mirror) {
            faults.append(
                AlternateFault(
                    url: mirror, reason: .verification,
                    message: "the file failed verification with several mirrors (\(reason)): "
                        + "fetched again from the first mirror only"))
        }
        excludeAllButOrigin = true
    }

    private var excludeAllButOrigin = false

    static func host(of url: String) -> String {
        guard let schemeEnd = url.range(of: "://") else { return url }
        let rest = url[schemeEnd.upperBound...]
        return String(rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }).lowercased()
    }
}

/// Keeps the first final response head and the first `windowSize` body bytes, and counts (drops) up to `limit`
/// body bytes, for at most a quarter second, to measure the connection's rate past TCP's slow start.
private final class ProbeReceiver: HTTPResponseReceiver {
    private let limit: Int
    private let windowSize: Int
    private(set) var head: HTTPResponseHead?
    private(set) var window: [UInt8] = []
    private var bytes = 0
    private var started: Double?
    /// Bytes per second over the last three quarters of `limit`, when they arrived within the quarter second.
    private(set) var rate: Double?

    init(limit: Int, window: Int) {
        self.limit = limit
        windowSize = window
    }

    func head(_ head: HTTPResponseHead) {
        guard !head.isInterim else { return }
        self.head = head.isRedirect ? nil : head
        window = []  // a redirect's body is never the file's
        bytes = 0
    }

    func body(_ chunk: UnsafeRawBufferPointer) -> Bool {
        guard head?.status == 200 || head?.status == 206 else { return false }
        if window.count < windowSize { window += chunk.prefix(windowSize - window.count) }
        let now = ProgressMeter.now()
        bytes += chunk.count
        if started == nil, bytes >= limit / 4 { started = now }
        guard bytes < limit else {
            if let started, now > started { rate = Double(bytes - limit / 4) / (now - started) }
            return false
        }
        return started.map { now - $0 < 0.25 } ?? true
    }
}
