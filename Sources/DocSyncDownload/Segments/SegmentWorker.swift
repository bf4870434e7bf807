import DocSyncHTTP
import DocSyncSupport

/// Runs one assignment of a segmented download: one ranged request through the transport seam into a
/// `SegmentSink`, and what came of it.
struct SegmentWorker: Sendable {
    enum Failure: Sendable, Equatable {
        case overlapMismatch(Int64)
        case disk(SystemError)
    }

    /// How one transfer ended, for the coordinator.
    enum Outcome: Sendable, Equatable {
        /// The assigned range (or what a steal left of it) is written.
        case finished
        /// Bytes may have been written, but the range is not done (a dropped connection, a stall).
        case interrupted(String)
        case alternateFault(AlternateFault.Reason, String)
        case originChanged(String)
        case readmit(String)
        case adopt(Validator)
        case retry(after: Int64?, String)
        case disk(SystemError)
        case cancelled
    }

    struct Result: Sendable {
        var assignment: SegmentScheduler.Assignment
        var outcome: Outcome
        var bytes: Int64
    }

    let store: SegmentStore
    let transport: HTTPTransport
    let options: HTTPOptions
    let alternates: [String]
    let overlap: Int64
    let commitInterval: Double
    let digestKnown: Bool
    /// One kept connection per connection slot: a slot's next request to the same mirror reuses it (keep-alive).
    let connections: [HTTPConnection]

    /// Fetches `assignment` from its mirror, after `delay` seconds (a backoff), holding the mirror to `expected`.
    func run(
        _ assignment: SegmentScheduler.Assignment, chunkState: [UInt8], segmentStart: Int64, expected: Validator?,
        isOrigin: Bool, delay: Double
    ) async -> Result {
        if delay > 0 {
            do { try await Task.sleep(nanoseconds: UInt64(delay * 1e9)) } catch {
                return Result(assignment: assignment, outcome: .cancelled, bytes: 0)
            }
        }
        if Task.isCancelled { return Result(assignment: assignment, outcome: .cancelled, bytes: 0) }
        // B18 at every resumed segment start: re-fetch up to `overlap` bytes below it and compare them.
        let requestFrom = assignment.from > segmentStart ? max(segmentStart, assignment.from - overlap) : assignment.from
        let identity = store.identity
        let context = SegmentResponsePolicy.Context(
            identity: identity, asked: requestFrom..<assignment.to, expected: expected, isOrigin: isOrigin,
            digestKnown: digestKnown)
        let sink = SegmentSink(
            store: store, assignment: assignment, context: context, requestFrom: requestFrom, chunkState: chunkState,
            commitInterval: commitInterval)
        let headers = SegmentResponsePolicy.headers(
            asking: requestFrom..<assignment.to, precondition: expected.flatMap(SegmentIdentity.precondition(for:)))
        let url = alternates[assignment.mirror]
        let connection = connections.indices.contains(assignment.connection) ? connections[assignment.connection] : nil
        let result = await transport.perform(
            HTTPRequest(url: url, headers: headers, options: options, connection: connection), sink)
        sink.finish()
        return Result(assignment: assignment, outcome: outcome(sink, result), bytes: sink.bytesWritten)
    }

    private func outcome(_ sink: SegmentSink, _ result: HTTPTransferResult) -> Outcome {
        switch sink.failure {
        case .overlapMismatch(let offset)?:
            return .alternateFault(.differentFile, "bytes at \(offset) differ from the file's: another version")
        case .disk(let error)?: return .disk(error)
        case nil: break
        }
        if sink.reachedEnd {
            if case .accept(let adopt?) = sink.verdict { return .adopt(adopt) }
            return .finished
        }
        switch sink.verdict {
        case .accept(let adopt):
            if case .cancelled = result.ending { return .cancelled }
            if case .failed(let error) = result.ending { return transport(error) }
            // A body that ended cleanly without a byte (a chunked 206 cut short) is no progress: a failure.
            if case .complete = result.ending, sink.bytesWritten == 0 {
                return .interrupted("the 206 ended before its first byte")
            }
            if case .complete = result.ending, let adopt { return .adopt(adopt) }
            if case .complete = result.ending { return .finished }
            return .interrupted("transfer stopped")
        case .originChanged(let reason): return .originChanged(reason)
        case .alternateFault(let code, let reason): return .alternateFault(code, reason)
        case .readmit(let reason): return .readmit(reason)
        case .retry(let after, let reason): return .retry(after: after, reason)
        case .ignore:
            if case .cancelled = result.ending { return .cancelled }
            if case .failed(let error) = result.ending { return transport(error) }
            return .retry(after: nil, "no final response")
        }
    }

    /// DNS, TLS and certificate failures mean this mirror cannot serve us; the rest is worth another try.
    private func transport(_ error: HTTPTransportError) -> Outcome {
        switch error.kind {
        case .resolve, .tls, .tlsCertificate, .badURL, .protocolNotAllowed, .tooManyRedirects, .redirectRefused,
            .libraryUnavailable:
            return .alternateFault(AlternateFault.Reason(excluding: error.kind), "\(error.message) (\(error.kind.rawValue))")
        case .connect, .timeout, .stall, .closedEarly, .other:
            return .interrupted("\(error.message) (\(error.kind.rawValue))")
        }
    }
}
