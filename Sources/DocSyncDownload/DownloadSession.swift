import DocSyncHTTP
import DocSyncSupport

#if canImport(Glibc)
    import Glibc
#endif

/// One run of `Downloader.download`: the attempt loop with its retry, restart and mirror bookkeeping.
final class DownloadSession: DownloadJobRunner {
    let job: DownloadJob

    private var journal: Journal
    private var resumedFrom: Int64 = 0
    private var attempts = 0
    private var failuresInARow = 0
    private var restarts = 0
    private var digestRestarts = 0
    private var rejectsInARow = 0
    private var reResolves = 0
    private var spliced = false
    /// The mirror whose bytes were written last.
    private var usedAlternate: String?
    private var mirror = 0
    private var alternateFaults = 0
    private var deadAlternates: Set<Int> = []
    /// The mirrors this download left for another, and why: reported like a segmented download's exclusions.
    private(set) var faults: [AlternateFault] = []
    /// Mirrors that refused a connection or did not resolve in this download (left at once for the others).
    private var unreachable: Set<Int> = []
    /// The mirror being left served a web page behind an archive type (`ArchiveSniff`): its fault is `html_page`.
    private var leavingForPage = false
    /// The head of the last response, for the fault of a mirror left after it.
    private var lastHead: HTTPResponseHead?
    private var lastError: DownloadError?
    /// The URLs to try, in order (`AlternatePlan`: https upgrades of plain-http mirrors first).
    private let alternates: [Alternate]
    /// Some bytes of the file came over plain http (a fallback, a plain mirror or a redirect to http).
    private var plainHTTP = false
    /// Watches a fresh download's first response for a hand-over to the segmented path.
    var splitProbe: SplitProbe?
    /// Set when the first response handed the download over (`run` then returns nil); the URL it came from.
    private(set) var handedOver: (identity: SegmentIdentity, url: String)?

    init(_ job: DownloadJob) {
        self.job = job
        journal = Journal.empty(key: job.key, chunkSize: job.configuration.chunkSize)
        alternates = AlternatePlan.expand(
            job.request.alternates, policy: job.configuration.schemePolicy, upgradeLocal: job.configuration.upgradeLocal)
    }

    private var retry: RetryPolicy { configuration.retry }
    /// Bytes one attempt must write to count as progress: what the minimum speed delivers in one stall window.
    private var progressFloor: Int64 {
        let (bytes, overflow) = Int64(configuration.http.lowSpeedLimit)
            .multipliedReportingOverflow(by: Int64(max(1, configuration.http.lowSpeedTime)))
        return overflow ? Int64.max : max(1, bytes)  // saturates: 1 PiB/s for ten years is "never"
    }
    private var url: String { alternates[mirror].url }

    /// The finished download, or nil when the segmented path takes over (`handedOver`).
    func run() async throws(DownloadError) -> DownloadResult? {
        if let length = request.expectedLength, let limit = configuration.maxLength, length > limit {
            throw DownloadError(
                .tooLarge, url: url, reason: "the file is \(length) bytes, above the limit of \(limit) bytes",
                isTransient: false)
        }
        if let done = try finishedByEarlierRun() { return done }
        do throws(SystemError) {
            journal = try staging.recover(
                key: key, chunkSize: configuration.chunkSize, expectedLength: request.expectedLength)
        } catch {
            throw .disk(error)
        }
        resumedFrom = journal.committed
        plainHTTP = resumedFrom > 0 && AlternatePlan.isPlainHTTP(journal.url)
        spliced = resumedFrom > 0
        request.committed?(journal.committed)
        while true {
            if Task.isCancelled { throw DownloadError(.cancelled, url: url, reason: "cancelled", isTransient: true) }
            let state = ResumeState(
                committed: journal.committed, length: journal.length, validator: journal.validator,
                digestKnown: expected != nil, overlap: configuration.overlap)
            let plan = RequestPolicy.plan(state)
            if plan == .finalize {
                if let result = try finalize() { return result }
                continue
            }
            try checkFreeSpace()
            try await attempt(plan: plan, state: state)
            if handedOver != nil { return nil }
        }
    }

    // MARK: - One request

    private func attempt(plan: RequestPlan, state: ResumeState) async throws(DownloadError) {
        attempts += 1
        let before = journal.committed
        var context = ResponsePolicy.Context(
            state: state, plan: plan, expectedLength: request.expectedLength)
        context.rejectsPages = configuration.rejectsPages
        let sink = TransferSink(
            staging: staging, journal: journal, context: context, alternateURL: url,
            commitInterval: configuration.commitInterval, meter: meter,
            committed: request.committed, limits: SpaceLimits(configuration))
        var options = configuration.http
        if alternates[mirror].isUpgrade { options.connectTimeout = min(options.connectTimeout, 10) }  // fall back soon
        let http = HTTPRequest(url: url, headers: plan.headers, options: options)
        // Only a URL exactly as the caller gave it (not an https upgrade) can be handed over to segments.
        sink.splitProbe = journal.committed == 0 && request.alternates.contains(url) ? splitProbe : nil
        let result = await configuration.transport.perform(http, sink)
        sink.finish()
        journal = sink.journal
        if let probe = sink.splitProbe, probe.handOver, let identity = probe.identity {
            handedOver = (identity, url)
            return
        }
        if sink.discardedPartial { try countRestart("\(sink.finalHead?.status ?? 0) replaced the partial file") }
        if plan.isRange, sink.bytesWritten > 0 { spliced = true }
        if sink.bytesWritten > 0 { usedAlternate = url }
        if sink.bytesWritten > 0, AlternatePlan.isPlainHTTP(result.effectiveURL) { plainHTTP = true }
        // Progress resets the failure count only when it is worth one stall window at the minimum speed: an attempt
        // that gets a few bytes and stalls (a trickling server) must not keep a download retrying forever.
        let gained = sink.bytesWritten >= progressFloor
        let progressed = gained && (journal.committed > before || sink.discardedPartial)
        if progressed {
            failuresInARow = 0
            reResolves = 0
        }
        let status = sink.finalHead?.status ?? result.status
        lastHead = sink.finalHead

        if let failure = sink.failure {
            switch failure {
            case .overlapMismatch(let offset):
                return try restartFromZero("bytes at \(offset) differ from the file: the server sends another version")
            case .overlong(let limit):
                rejectsInARow += 1
                let error = DownloadError(
                    .badResponse, url: url, status: status, reason: "body runs past byte \(limit)", isTransient: true)
                return try await fault(error, retryAfter: nil)
            case .page:
                let type = sink.finalHead?.value("Content-Type") ?? "none"
                let error = DownloadError(
                    .http, url: url, status: status,
                    reason: "\(status) with an HTML page behind Content-Type \(type) (a soft 404?), not an archive",
                    isTransient: false)
                leavingForPage = true
                return try abandonAlternate(error)
            case .disk(let error): throw .disk(error)
            case .insufficientSpace(let needed, let available):
                throw insufficientSpace(needed: needed, available: available)
            case .tooLarge(let length, let limit):
                do throws(SystemError) { try staging.discard() } catch { throw .disk(error) }
                let what = length.map { "declares \($0) bytes" } ?? "sent more than \(limit) bytes"
                throw DownloadError(
                    .tooLarge, url: url, status: status,
                    reason: "the file \(what), above the limit of \(limit) bytes", isTransient: false)
            }
        }
        if result.ending == .cancelled {
            throw DownloadError(.cancelled, url: url, reason: "cancelled", isTransient: true)
        }
        if case .failed(let error) = result.ending, sink.finalHead == nil || sink.decision.writes {
            return try await transportFailure(error, status: status)
        }
        switch sink.decision {
        case .write(let accepted):
            rejectsInARow = 0
            if case .failed(let error) = result.ending { return try await transportFailure(error, status: status) }
            if accepted.total == nil {  // E48: the policy let it through only if framed or a digest will check it
                if let head = sink.finalHead, !ResponsePolicy.isFramed(head) { spliced = true }  // one retry if cut
                do throws(SystemError) { try sink.adoptLengthAtEnd() } catch { throw .disk(error) }
                journal = sink.journal
            } else if let end = accepted.end, journal.committed < end {
                let error = DownloadError(
                    .badResponse, url: url, status: status,
                    reason: "body ended at byte \(journal.committed), before the declared \(end)", isTransient: true)
                return try await fault(error, retryAfter: nil)
            }
        case .complete:
            return
        case .restart(let reason):
            return try restartFromZero(reason, status: status)
        case .reject(let reason):
            rejectsInARow += 1
            if rejectsInARow >= 2, plan.isRange {  // this server cannot do ranges: fetch it whole
                rejectsInARow = 0
                return try restartFromZero(reason, status: status)
            }
            let error = DownloadError(.badResponse, url: url, status: status, reason: reason, isTransient: true)
            return try await fault(error, retryAfter: nil)
        case .retryLater(let after, let reason):
            let error = DownloadError(.http, url: url, status: status, reason: reason, isTransient: true)
            return try await fault(error, retryAfter: after)
        case .nextAlternate(let reason):
            let error = DownloadError(.http, url: url, status: status, reason: reason, isTransient: false)
            return try abandonAlternate(error)
        case .reResolve(let reason):
            reResolves += 1
            let error = DownloadError(
                .http, url: result.effectiveURL, status: status, reason: reason, isTransient: true)
            if reResolves > retry.maxReResolves { return try abandonAlternate(error) }
            lastError = error  // the next attempt starts again from the original URL
        case .ignore:
            let error = DownloadError(
                .badResponse, url: url, status: status, reason: "no final response", isTransient: true)
            return try await fault(error, retryAfter: nil)
        }
    }

    private func transportFailure(_ error: HTTPTransportError, status: Int) async throws(DownloadError) {
        var failure = DownloadError.transport(error)
        failure.status = status
        if !error.isTransient { return try abandonAlternate(failure) }
        if error.kind == .resolve || error.kind == .connect, !alternates[mirror].isUpgrade {
            // A refused or unresolvable host: the next mirror now, no back-off; this one is retried (with back-off)
            // only once every other has refused too, or after they failed otherwise.
            unreachable.insert(mirror)
            if let next = nextReachableAlternate() {
                lastError = failure
                failuresInARow += 1
                if failuresInARow >= retry.maxAttempts { throw failure }
                leave(failure)
                mirror = next
                alternateFaults = 0
                return
            }
        }
        try await fault(failure, retryAfter: nil)
    }

    /// The next live mirror (in order after the current one) that has not refused a connection in this download.
    private func nextReachableAlternate() -> Int? {
        let count = alternates.count
        for step in 1..<(count + 1) {
            let candidate = (mirror + step) % count
            if candidate != mirror, !deadAlternates.contains(candidate), !unreachable.contains(candidate) {
                return candidate
            }
        }
        return nil
    }

    // MARK: - Bookkeeping

    /// A failure worth retrying: back off, move on to the next mirror after repeated faults, give up when the budget
    /// of attempts without progress is spent.
    private func fault(_ error: DownloadError, retryAfter: Int64?) async throws(DownloadError) {
        if alternates[mirror].isUpgrade { return try abandonAlternate(error) }  // HTTPS-First: fall back at once
        lastError = error
        failuresInARow += 1
        alternateFaults += 1
        if failuresInARow >= retry.maxAttempts { throw error }
        if alternateFaults >= 2, let next = nextLiveAlternate(after: mirror) {
            leave(error)
            mirror = next
            alternateFaults = 0
        }
        let delay = retry.delay(attempt: failuresInARow, retryAfter: retryAfter, jitter: Double.random(in: 0..<0.5))
        do {
            try await Task.sleep(nanoseconds: UInt64(delay * 1e9))
        } catch {
            throw DownloadError(.cancelled, url: url, reason: "cancelled", isTransient: true)
        }
    }

    private func abandonAlternate(_ error: DownloadError) throws(DownloadError) {
        lastError = error
        deadAlternates.insert(mirror)
        guard let next = nextLiveAlternate(after: mirror) else { throw error }
        leave(error)
        mirror = next
        alternateFaults = 0
        reResolves = 0
    }

    /// Records why the current mirror is left for the next one; an HTTPS-First attempt that falls back to the
    /// mirror's own plain-http URL is not a fault of that mirror.
    private func leave(_ error: DownloadError) {
        let page = leavingForPage
        leavingForPage = false
        guard !alternates[mirror].isUpgrade else { return }
        var message = error
        message.url = nil  // the fault names its mirror itself
        faults.append(
            AlternateFault(
                url: alternates[mirror].url, reason: page ? .htmlPage : AlternateFault.Reason(leaving: error, head: lastHead),
                message: message.description))
    }

    private func nextLiveAlternate(after index: Int) -> Int? {
        let count = alternates.count
        for step in 1..<(count + 1) {
            let candidate = (index + step) % count
            if candidate != index, !deadAlternates.contains(candidate) { return candidate }
        }
        return nil
    }

    private func countRestart(_ reason: String, status: Int? = nil) throws(DownloadError) {
        restarts += 1
        if restarts > retry.maxRestarts {
            throw DownloadError(
                .tooManyRestarts, url: url, status: status,
                reason: "restarted from zero \(restarts - 1) times; last: \(reason)", isTransient: true)
        }
    }

    /// Throws the partial away durably and starts over with a plain GET.
    private func restartFromZero(_ reason: String, status: Int? = nil) throws(DownloadError) {
        lastError = DownloadError(.badResponse, url: url, status: status, reason: reason, isTransient: true)
        try countRestart(reason, status: status)
        try resetPartial()  // P = 0: the next request is a plain GET
    }

    private func resetPartial() throws(DownloadError) {
        journal = Journal.empty(key: key, chunkSize: configuration.chunkSize)
        do throws(SystemError) { try staging.truncate(to: 0, journal: journal) } catch { throw .disk(error) }
        request.committed?(0)
    }

    /// Before a request, only a length the feed confirms is trusted: a journal's own length (possibly corrupt or
    /// stale) is first checked against the server's answer, where `TransferSink` checks the space it needs.
    private func checkFreeSpace() throws(DownloadError) {
        var remaining: Int64 = 0
        if let length = journal.length, request.expectedLength == length { remaining = length - journal.committed }
        let needed = remaining + configuration.minFreeSpace
        guard needed > 0 else { return }
        let available: Int64
        do throws(SystemError) { available = try configuration.freeSpace(staging.directory) } catch {
            throw .disk(error)
        }
        if needed > available { throw insufficientSpace(needed: needed, available: available) }
    }

    /// `needed` includes the free-space reserve, which the message names when there is one.
    private func insufficientSpace(needed: Int64, available: Int64) -> DownloadError {
        let reserve = configuration.minFreeSpace
        let reason =
            switch (reserve, needed - reserve) {
            case (0, _): "\(needed) bytes needed in \(staging.directory), \(available) available"
            case (_, ...0):
                "free space in \(staging.directory) fell to \(available) bytes, below the reserve of \(reserve)"
            case (_, let rest):
                "\(rest) bytes still to download plus a reserve of \(reserve) must stay free in \(staging.directory), "
                    + "\(available) available"
            }
        return DownloadError(.insufficientSpace, url: url, reason: reason, isTransient: true)
    }

    // MARK: - Finish

    /// P == L: check length and digest, then move the file into place (A13, I64). Nil when verification failed
    /// and one fresh download is worth a try.
    private func finalize() throws(DownloadError) -> DownloadResult? {
        let digest = SHA256(savedState: journal.hashState)?.finalize() ?? SHA256().finalize()
        if let length = request.expectedLength, length != journal.committed {
            try verificationFailed("length is \(journal.committed), expected \(length)")
            return nil
        }
        if let expected, expected != digest {
            try verificationFailed("SHA-256 is \(digest), expected \(expected)")
            return nil
        }
        do throws(SystemError) { try staging.finalize(to: request.destination) } catch { throw .disk(error) }
        meter.report(bytes: journal.committed, total: journal.length, force: true)
        return DownloadResult(
            url: usedAlternate ?? (journal.url.isEmpty ? url : journal.url), bytes: journal.committed,
            sha256: digest.description,
            resumedFrom: resumedFrom, attempts: attempts, seconds: meter.elapsed, path: request.destination,
            overPlainHTTP: plainHTTP, alternateFaults: faults)
    }

    /// Deletes the staging file; a spliced file earns one fresh download (F51), a fresh one fails at once (H63).
    private func verificationFailed(_ reason: String) throws(DownloadError) {
        let error = DownloadError(.verification, url: journal.url, reason: reason, isTransient: false)
        do throws(SystemError) { try staging.discard() } catch { throw .disk(error) }
        guard spliced, digestRestarts == 0 else { throw error }
        digestRestarts += 1
        spliced = false
        do throws(SystemError) { try staging.openPart() } catch { throw .disk(error) }
        try resetPartial()
    }

    /// A run killed between the final rename and the journal's removal left a complete destination (A13, I66).
    private func finishedByEarlierRun() throws(DownloadError) -> DownloadResult? {
        guard !staging.partExists, let old = staging.readJournal(), old.key == key, let length = old.length,
            old.committed == length, access(request.destination, F_OK) == 0,
            let digest = SHA256(savedState: old.hashState)?.finalize(), expected == nil || expected == digest,
            (try? FileDigest.sha256(of: request.destination)) == digest
        else { return nil }
        do throws(SystemError) { try staging.discard() } catch { throw .disk(error) }
        return DownloadResult(
            url: old.url, bytes: length, sha256: digest.description, resumedFrom: length, attempts: 0,
            seconds: meter.elapsed, path: request.destination, overPlainHTTP: AlternatePlan.isPlainHTTP(old.url))
    }
}
