import DocSyncHTTP
import DocSyncSupport

/// Admission of a mirror other than the first (README "Segmented downloads"): before it gets a segment, it must
/// serve a window of bytes the first mirror already delivered — same length, its validator held as for segments,
/// and the bytes equal. A mirror with another file of the same length and even the same ETag is excluded here,
/// before any of its bytes reach the file.
struct SegmentProof: Sendable {
    enum Outcome: Sendable, Equatable {
        /// Admitted; `adopt` is its own validator when it was admitted on the feed's SHA-256.
        case proven(adopt: Validator?)
        case fault(AlternateFault.Reason, String)
        case readmit(String)
        case retry(String)
    }

    let transport: HTTPTransport
    let options: HTTPOptions
    let digestKnown: Bool

    /// Asks `url` for `window` (whose bytes in the file are `known`) holding it to `expected`.
    func run(
        url: String, window: Range<Int64>, known: [UInt8], identity: SegmentIdentity, expected: Validator?
    ) async -> Outcome {
        let context = SegmentResponsePolicy.Context(
            identity: identity, asked: window, expected: expected, isOrigin: false, digestKnown: digestKnown)
        let receiver = Collector(context: context, limit: known.count)
        let headers = SegmentResponsePolicy.headers(
            asking: window, precondition: expected.flatMap(SegmentIdentity.precondition(for:)))
        let result = await transport.perform(HTTPRequest(url: url, headers: headers, options: options), receiver)
        switch receiver.verdict {
        case .accept(let adopt):
            if case .failed(let error) = result.ending, receiver.bytes.count < known.count {
                return failure(error)
            }
            guard receiver.bytes.count == known.count else { return .retry("the window arrived short") }
            guard receiver.bytes == known else {
                return .fault(
                    .differentFile,
                    "bytes \(window.lowerBound)-\(window.upperBound - 1) differ from the first mirror's: another file")
            }
            return .proven(adopt: adopt)
        case .alternateFault(let code, let reason): return .fault(code, reason)
        case .originChanged(let reason): return .fault(.validatorMismatch, reason)
        case .readmit(let reason): return .readmit(reason)
        case .retry(_, let reason): return .retry(reason)
        case .ignore:
            if case .failed(let error) = result.ending { return failure(error) }
            return .retry("no final response")
        }
    }

    private func failure(_ error: HTTPTransportError) -> Outcome {
        switch error.kind {
        case .resolve, .tls, .tlsCertificate, .badURL, .protocolNotAllowed, .tooManyRedirects, .redirectRefused:
            .fault(AlternateFault.Reason(excluding: error.kind), "\(error.message) (\(error.kind.rawValue))")
        default: .retry("\(error.message) (\(error.kind.rawValue))")
        }
    }

    /// Judges the head and keeps at most `limit` body bytes of an accepted response, in memory.
    private final class Collector: HTTPResponseReceiver {
        let context: SegmentResponsePolicy.Context
        let limit: Int
        var verdict: SegmentVerdict = .ignore
        var bytes: [UInt8] = []

        init(context: SegmentResponsePolicy.Context, limit: Int) {
            self.context = context
            self.limit = limit
        }

        func head(_ head: HTTPResponseHead) {
            let verdict = SegmentResponsePolicy.judge(head, context)
            if verdict != .ignore { self.verdict = verdict }
        }

        func body(_ chunk: UnsafeRawBufferPointer) -> Bool {
            guard case .accept = verdict, bytes.count + chunk.count <= limit else { return false }
            bytes.append(contentsOf: chunk)
            return true
        }
    }
}
