import DocSyncHTTP
import DocSyncSupport

#if canImport(Glibc)
    import Glibc
#endif

/// One segmented run of `Downloader.download` (issue 15): up to `connections` ranged transfers at once over the
/// mirrors, each response held to the download's identity, every segment's durable extent in a version-2 journal,
/// the whole file checked chunk by chunk and against the feed's SHA-256 before it is moved into place.
/// `.single` hands the download to the single-connection path (the first response does not allow a split, or a
/// version-1 partial exists).
final class SegmentedDownload {
    enum Outcome {
        case finished(DownloadResult)
        case single(String)
    }

    private let configuration: DownloadConfiguration
    private let request: DownloadRequest
    private let key: String
    private let expected: SHA256.Digest?
    private let staging: StagingFile
    private let meter: ProgressMeter

    private var restarts = 0
    private var attempts = 0
    private var resumedFrom: Int64 = 0
    private var faults: [String] = []
    /// Per mirror: the validator its requests carry (nil: being admitted on the feed's SHA-256 without one).
    private var validators: [Validator?] = []
    private var readmitted: Set<Int> = []
    private var originMirror = 0
    /// The first mirror's first bytes, from the probe: the window other mirrors are admitted against before any
    /// segment is written.
    private var probeWindow: (window: Range<Int64>, bytes: [UInt8])?

    init(
        configuration: DownloadConfiguration, request: DownloadRequest, key: String, expected: SHA256.Digest?,
        staging: StagingFile, meter: ProgressMeter
    ) {
        self.configuration = configuration
        self.request = request
        self.key = key
        self.expected = expected
        self.staging = staging
        self.meter = meter
    }

    private var options: SegmentOptions { configuration.segments }

    /// Continues a segmented partial (a version-2 journal); `.single` when there is none.
    func resume() async throws(DownloadError) -> Outcome {
        guard let found = try resumable() else { return .single("no segmented partial") }
        resumedFrom = found.durableBytes
        return try await run(found)
    }

    /// Takes over a fresh download whose first response (from mirror `mirror`) allowed and needed a split; the
    /// bytes it wrote become the admission window for the other mirrors, then the partial starts over in segments.
    func start(_ identity: SegmentIdentity, mirror: Int) async throws(DownloadError) -> Outcome {
        originMirror = mirror
        let size = Int(max(4096, configuration.overlap))
        if let partial = staging.readJournal(), partial.committed >= Int64(size) {
            let raw = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
            defer { raw.deallocate() }
            if (try? staging.read(into: raw, at: 0)) == true { probeWindow = (0..<Int64(size), Array(raw)) }
        }
        return try await run(try fresh(identity))
    }

    private func run(_ first: SegmentJournal) async throws(DownloadError) -> Outcome {
        var journal = first
        while true {
            let store = SegmentStore(
                staging: staging, journal: journal, hosts: request.mirrors.map(Self.host(of:)),
                perHost: options.perHost, meter: meter, callback: request.committed)
            request.committed?(journal.contiguous)
            validators = request.mirrors.map { _ in journal.identity.validator }
            if excludeAllButOrigin {
                for index in request.mirrors.indices where index != originMirror { store.exclude(mirror: index) }
            }
            let changed: String?
            do throws(DownloadError) { changed = try await transfer(store) } catch {
                store.prefixHasher.stop()
                throw error
            }
            if let reason = changed {  // the origin changed: start again under its new identity
                store.prefixHasher.stop()
                restarts += 1
                if restarts > configuration.retry.maxRestarts {
                    throw DownloadError(
                        .tooManyRestarts, url: request.mirrors[originMirror],
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
            url: request.mirrors[0], headers: ["Range: bytes=0-", "Accept-Encoding: identity"],
            options: configuration.http)
        _ = await configuration.transport.perform(http, probe)
        guard let head = probe.head else { return .single("no answer to the first request") }
        originMirror = 0
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
    private func fresh(_ identity: SegmentIdentity) throws(DownloadError) -> SegmentJournal {
        let ranges = SplitPolicy.plan(
            length: identity.length, chunkSize: configuration.chunkSize, minimumSegment: options.minimumSegment,
            connections: options.connections)
        let journal = SegmentJournal(
            key: key, url: request.mirrors[originMirror], identity: identity, chunkSize: configuration.chunkSize,
            extents: ranges.map { .init(start: $0.lowerBound, end: $0.upperBound, done: $0.lowerBound,
                chunkState: SHA256().savedState) },
            digests: [:])
        do throws(SystemError) {
            try staging.openPart()
            try staging.truncate(to: 0, encoded: journal.encoded())
        } catch {
            throw .disk(error)
        }
        request.committed?(0)
        resumedFrom = 0
        return journal
    }

    // MARK: - Transfers

    private enum Event: Sendable {
        case transfer(SegmentWorker.Result)
        case proof(mirror: Int, SegmentProof.Outcome)
        case tick
    }

    /// Runs transfers (and mirror admissions) until every segment is written and durable. Returns the reason when
    /// the origin changed.
    private func transfer(_ store: SegmentStore) async throws(DownloadError) -> String? {
        let worker = SegmentWorker(
            store: store, transport: configuration.transport, options: configuration.http, mirrors: request.mirrors,
            overlap: configuration.overlap, commitInterval: configuration.commitInterval, digestKnown: expected != nil)
        let prover = SegmentProof(
            transport: configuration.transport, options: configuration.http, digestKnown: expected != nil)
        var unproven = Set(request.mirrors.indices.filter { $0 != originMirror })
        for mirror in unproven { store.setProven(false, mirror: mirror) }
        var proofRetries: [Int: Int] = [:]
        var failuresInARow = 0
        var lastError: DownloadError?
        var originChanged: String?
        var diskError: SystemError?
        await withTaskGroup(of: Event.self) { group in
            var free = Array(0..<max(1, options.connections))
            var transfers = 0
            var proving: Set<Int> = []
            var ticking = false
            var delay = 0.0
            func fill() {
                prove()
                // While mirrors are being admitted, keep a slot each for them (the origin keeps at least one).
                let reserve = min(proving.count, max(0, free.count - (transfers == 0 ? 1 : 0)))
                while free.count > reserve, let connection = free.first,
                    let (assignment, state) = store.assign(connection: connection)
                {
                    free.removeFirst()
                    transfers += 1
                    attempts += 1
                    let start = store.segments.first { $0.end > assignment.from && $0.start <= assignment.from }?.start
                    let expectedValidator = validators[assignment.mirror]
                    let isOrigin = assignment.mirror == originMirror
                    let wait = delay
                    group.addTask {
                        .transfer(
                            await worker.run(
                                assignment, chunkState: state, segmentStart: start ?? assignment.segment,
                                expected: expectedValidator, isOrigin: isOrigin, delay: wait))
                    }
                }
            }
            func prove() {
                let waiting = unproven.subtracting(proving).filter { store.mirrors[$0].admitted }
                guard !waiting.isEmpty, !store.isComplete else { return }
                let written = try? store.proofWindow(count: max(4096, configuration.overlap))
                guard let (window, known) = written ?? probeWindow else {
                    if !ticking {  // nothing written yet to prove a mirror against: look again shortly
                        ticking = true
                        group.addTask {
                            try? await Task.sleep(nanoseconds: 200_000_000)
                            return .tick
                        }
                    }
                    return
                }
                for mirror in waiting.sorted() {
                    proving.insert(mirror)
                    let url = request.mirrors[mirror]
                    let identity = store.identity
                    let expectedValidator = validators[mirror]
                    group.addTask {
                        .proof(
                            mirror: mirror,
                            await prover.run(
                                url: url, window: window, known: known, identity: identity,
                                expected: expectedValidator))
                    }
                }
            }
            fill()
            while let event = await group.next() {
                switch event {
                case .tick: ticking = false
                case .proof(let mirror, let outcome):
                    proving.remove(mirror)
                    switch outcome {
                    case .proven(let adopt):
                        if let adopt { validators[mirror] = adopt }
                        unproven.remove(mirror)
                        store.setProven(true, mirror: mirror)
                    case .fault(let reason):
                        unproven.remove(mirror)
                        exclude(mirror, store: store, reason: reason)
                    case .readmit(let reason):
                        if readmitted.insert(mirror).inserted {
                            validators[mirror] = nil
                        } else {
                            unproven.remove(mirror)
                            exclude(mirror, store: store, reason: reason)
                        }
                    case .retry(let reason):
                        proofRetries[mirror, default: 0] += 1
                        if proofRetries[mirror, default: 0] >= 3 {
                            unproven.remove(mirror)
                            exclude(mirror, store: store, reason: reason)
                        }
                    }
                case .transfer(let result):
                    transfers -= 1
                    free.append(result.assignment.connection)
                    store.release(connection: result.assignment.connection)
                    if result.bytes > 0 { failuresInARow = 0 }
                    let url = request.mirrors[result.assignment.mirror]
                    switch result.outcome {
                    case .finished: delay = 0
                    case .adopt(let validator):
                        validators[result.assignment.mirror] = validator
                        delay = 0
                    case .cancelled: break
                    case .disk(let error):
                        diskError = diskError ?? error
                        group.cancelAll()
                    case .originChanged(let reason):
                        originChanged = originChanged ?? reason
                        group.cancelAll()
                    case .mirrorFault(let reason):
                        exclude(result.assignment.mirror, store: store, reason: reason)
                        lastError = DownloadError(.badResponse, url: url, reason: reason, isTransient: false)
                    case .readmit(let reason):
                        if readmitted.insert(result.assignment.mirror).inserted {
                            validators[result.assignment.mirror] = nil
                        } else {
                            exclude(result.assignment.mirror, store: store, reason: reason)
                        }
                    case .interrupted(let reason), .retry(_, let reason):
                        failuresInARow += result.bytes > 0 ? 0 : 1
                        lastError = DownloadError(.transport, url: url, reason: reason, isTransient: true)
                        if failuresInARow >= configuration.retry.maxAttempts { group.cancelAll() }
                        var after: Int64?
                        if case .retry(let value, _) = result.outcome { after = value }
                        delay = configuration.retry.delay(
                            attempt: failuresInARow, retryAfter: after, jitter: Double.random(in: 0..<0.5))
                    }
                }
                let stopping =
                    diskError != nil || originChanged != nil || failuresInARow >= configuration.retry.maxAttempts
                    || Task.isCancelled
                if stopping { continue }  // drain: the cancelled tasks return promptly
                if store.isComplete || (transfers == 0 && !store.hasAdmittedMirror) {
                    group.cancelAll()  // admissions still under way are no longer needed
                    continue
                }
                fill()
                if transfers == 0, proving.isEmpty, !ticking { break }  // nothing can make progress
            }
            group.cancelAll()
        }
        if let diskError { throw .disk(diskError) }
        if let originChanged { return originChanged }
        if Task.isCancelled { throw DownloadError(.cancelled, reason: "cancelled", isTransient: true) }
        guard store.isComplete else {
            if !store.hasAdmittedMirror || lastError == nil {
                throw DownloadError(
                    .badResponse, url: request.mirrors[originMirror],
                    reason: "no mirror left to fetch from: " + faults.joined(separator: "; "), isTransient: false)
            }
            throw lastError ?? DownloadError(.transport, reason: "transfers stopped early", isTransient: true)
        }
        do throws(SystemError) { try store.commit() } catch { throw .disk(error) }
        return nil
    }

    private func exclude(_ mirror: Int, store: SegmentStore, reason: String) {
        store.exclude(mirror: mirror)
        faults.append("\(request.mirrors[mirror]): \(reason)")
    }

    // MARK: - Finish

    /// Every chunk re-read and checked against its digest, the whole file against the feed's SHA-256, then moved into
    /// place (A13, I64). Nil when verification failed and one fresh download is worth a try.
    private func finalize(_ journal: SegmentJournal, store: SegmentStore) throws(DownloadError) -> DownloadResult? {
        let (digest, problem) = store.prefixHasher.finish(digests: journal.digests)
        let url = request.mirrors[originMirror]
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
            attempts: attempts, seconds: meter.elapsed, path: request.destination, mirrorFaults: faults)
    }

    /// Deletes the partial; a download that used several mirrors earns one fresh try from the origin alone.
    private var verificationRetried = false

    private func verificationFailed(_ reason: String, url: String) throws(DownloadError) {
        let error = DownloadError(.verification, url: url, reason: reason, isTransient: false)
        do throws(SystemError) { try staging.discard() } catch { throw .disk(error) }
        let mixed = request.mirrors.count > 1 && faults.count < request.mirrors.count - 1
        guard mixed, !verificationRetried else { throw error }
        verificationRetried = true
        faults.append("verification failed with several mirrors (\(reason)): retrying from the first mirror only")
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
