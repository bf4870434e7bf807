import DocSyncHTTP
import DocSyncSupport

/// The transfers of one segmented run: workers on free connections, mirror admissions, and what each outcome
/// means for the mirror and the download.
extension SegmentedDownload {
    // MARK: - Transfers

    fileprivate enum Event: Sendable {
        case transfer(SegmentWorker.Result)
        case proof(mirror: Int, SegmentProof.Outcome)
        case tick
    }

    /// Runs transfers (and mirror admissions) until every segment is written and durable. Returns the reason when
    /// the origin changed.
    func transfer(_ store: SegmentStore) async throws(DownloadError) -> String? {
        var http = configuration.http  // one memory budget, whatever the number of connections
        http.receiveBufferSize = TransferMemory.plan(connections: max(1, options.connections)).receiveBuffer
        let worker = SegmentWorker(
            store: store, transport: configuration.transport, options: http, alternates: request.alternates,
            overlap: configuration.overlap, commitInterval: configuration.commitInterval, digestKnown: expected != nil,
            connections: (0..<max(1, options.connections)).map { _ in HTTPConnection() })
        let prover = SegmentProof(
            transport: configuration.transport, options: configuration.http, digestKnown: expected != nil)
        var unproven = Set(request.alternates.indices.filter { $0 != originAlternate })
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
                    let isOrigin = assignment.mirror == originAlternate
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
                let waiting = unproven.subtracting(proving).filter { store.alternates[$0].admitted }
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
                    let url = request.alternates[mirror]
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
                    case .fault(let code, let reason):
                        unproven.remove(mirror)
                        exclude(mirror, store: store, code, reason)
                    case .readmit(let reason):
                        if readmitted.insert(mirror).inserted {
                            validators[mirror] = nil
                        } else {
                            unproven.remove(mirror)
                            exclude(mirror, store: store, .validatorMismatch, reason)
                        }
                    case .retry(let reason):
                        proofRetries[mirror, default: 0] += 1
                        if proofRetries[mirror, default: 0] >= 3 {
                            unproven.remove(mirror)
                            exclude(mirror, store: store, .transport, reason)
                        }
                    }
                case .transfer(let result):
                    transfers -= 1
                    free.append(result.assignment.connection)
                    store.release(connection: result.assignment.connection)
                    if result.bytes > 0 { failuresInARow = 0 }
                    let url = request.alternates[result.assignment.mirror]
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
                    case .alternateFault(let code, let reason):
                        exclude(result.assignment.mirror, store: store, code, reason)
                        lastError = DownloadError(.badResponse, url: url, reason: reason, isTransient: false)
                    case .readmit(let reason):
                        if readmitted.insert(result.assignment.mirror).inserted {
                            validators[result.assignment.mirror] = nil
                        } else {
                            exclude(result.assignment.mirror, store: store, .validatorMismatch, reason)
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
                if store.isComplete || (transfers == 0 && !store.hasAdmittedAlternate) {
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
            var error =
                lastError ?? DownloadError(.transport, reason: "transfers stopped early", isTransient: true)
            if !store.hasAdmittedAlternate || lastError == nil {
                error = DownloadError(
                    .badResponse, url: request.alternates[originAlternate],
                    reason: "no mirror left to fetch from: " + faults.map(\.description).joined(separator: "; "),
                    isTransient: false)
            }
            error.alternateFaults = faults
            throw error
        }
        do throws(SystemError) { try store.commit() } catch { throw .disk(error) }
        return nil
    }

    private func exclude(_ mirror: Int, store: SegmentStore, _ code: AlternateFault.Reason, _ reason: String) {
        store.exclude(mirror: mirror)
        faults.append(AlternateFault(url: request.alternates[mirror], reason: code, message: reason))
    }
}
