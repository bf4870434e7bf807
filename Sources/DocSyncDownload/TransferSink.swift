import DocSyncHTTP
import DocSyncSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Receives one transfer on libcurl's thread: judges every response head with `ResponsePolicy`, compares the
/// overlap and hands accepted bytes to a `WritePipeline`, which hashes them, writes them at explicit offsets and
/// commits them at every chunk boundary. Nothing of a refused response reaches the file (C31, J68).
final class TransferSink: HTTPResponseReceiver {
    enum Failure: Equatable {
        /// The re-fetched bytes below P differ from the file: another representation.
        case overlapMismatch(offset: Int64)
        /// More body than the response declared.
        case overlong(limit: Int64)
        case disk(SystemError)
        case insufficientSpace(needed: Int64, available: Int64)
        /// The body is (or declares to be) longer than `SpaceLimits.maxLength`.
        case tooLarge(length: Int64?, limit: Int64)
        /// An archive's body starts like a web page (`ArchiveSniff`): the mirror's soft 404 behind an archive type.
        case page
    }

    let staging: StagingFile
    private let base: ResponsePolicy.Context
    private let alternateURL: String
    private let committedCallback: (@Sendable (Int64) -> Void)?
    private let meter: ProgressMeter
    private let commitInterval: Double
    private var pipeline: WritePipeline?
    private let limits: SpaceLimits
    /// `written` at which the free space is checked next.
    private var nextSpaceCheck: Int64 = 0

    /// The journal as last made durable.
    private(set) var journal: Journal
    private(set) var decision: ResponseDecision = .ignore
    private(set) var finalHead: HTTPResponseHead?
    private(set) var failure: Failure?
    /// True when this transfer threw away an earlier partial (a 200 to a range request, or a fresh GET).
    private(set) var discardedPartial = false
    /// Bytes written this transfer (the overlap is compared, not written).
    private(set) var bytesWritten: Int64 = 0

    private var redirected = false
    private var plan: WritePlan?
    private var position: Int64 = 0
    private var written: Int64 = 0
    private var overlapBytes: [UInt8] = []
    private var sniffed = false

    init(
        staging: StagingFile, journal: Journal, context: ResponsePolicy.Context, alternateURL: String,
        commitInterval: Double, meter: ProgressMeter, committed: (@Sendable (Int64) -> Void)?,
        limits: SpaceLimits = SpaceLimits()
    ) {
        self.limits = limits
        self.commitInterval = commitInterval
        self.staging = staging
        self.alternateURL = alternateURL
        self.journal = journal
        self.base = context
        self.meter = meter
        self.committedCallback = committed
    }

    /// Hands a fresh download over to the segmented path when its first response allows and needs it.
    var splitProbe: SplitProbe?

    /// The write plan of the accepted response, if any.
    var acceptedPlan: WritePlan? { plan }

    func head(_ head: HTTPResponseHead) {
        var context = base
        context.redirected = redirected
        decision = ResponsePolicy.decide(head, context)
        if head.isRedirect { redirected = true }
        guard !head.isInterim, !(head.isRedirect && decision == .ignore) else { return }
        finalHead = head
        if case .write(let accepted) = decision {
            if accepted.truncateFirst, accepted.from == 0 { splitProbe?.consider(head) }
            prepare(accepted)
        }
    }

    private func prepare(_ accepted: WritePlan) {
        plan = accepted
        do throws(SystemError) {
            try staging.openPart()  // the first response accepted creates the partial
            if accepted.truncateFirst {
                let size = try staging.size()
                discardedPartial = journal.committed > 0 || size > 0
                var fresh = Journal.empty(key: journal.key, chunkSize: journal.chunkSize)
                fresh.url = alternateURL.redactingCredentials  // the journal is informational: no secret kept
                fresh.length = accepted.total
                fresh.validator = accepted.validator
                // C24: durable before P moves — when there is something to replace. A fresh start (an empty
                // partial, no journal on disk) has nothing a crash could misattribute: the first commit records
                // this journal once the first bytes are durable, and a partial found without a journal is
                // truncated (A5). Three syncs fewer before the first byte (P1's fixed cost).
                if discardedPartial || staging.journalExists { try staging.truncate(to: 0, journal: fresh) }
                journal = fresh
                committedCallback?(0)
            }
            written = journal.committed
            position = accepted.from
            if accepted.overlap > 0 {
                let raw = UnsafeMutableRawBufferPointer.allocate(byteCount: Int(accepted.overlap), alignment: 16)
                defer { raw.deallocate() }
                if try staging.read(into: raw, at: accepted.from) {
                    overlapBytes = Array(raw)
                } else {
                    failure = .overlapMismatch(offset: accepted.from)
                }
            }
            if let total = accepted.total, let limit = limits.maxLength, total > limit {
                failure = .tooLarge(length: total, limit: limit)
            } else {
                let needed = (accepted.total ?? written) - written + limits.minFreeSpace
                let available = try limits.freeSpace(staging.directory)
                if needed > available { failure = .insufficientSpace(needed: needed, available: available) }
                nextSpaceCheck = written + limits.checkInterval
            }
        } catch {
            failure = .disk(error)
        }
        if failure == nil {
            pipeline = WritePipeline(
                staging: staging, durable: journal, commitInterval: commitInterval, callback: committedCallback)
        }
    }

    func body(_ chunk: UnsafeRawBufferPointer) -> Bool {
        guard let plan, failure == nil else { return false }
        if base.rejectsPages, !sniffed, plan.from == 0, position == 0, !chunk.isEmpty {
            sniffed = true
            if ArchiveSniff.classify(chunk.prefix(512)) == .page {
                failure = .page
                return false
            }
        }
        if let splitProbe, !splitProbe.received(chunk.count) { return false }  // the segmented path takes over
        meter.received(chunk.count)
        var data = chunk
        if position < written {  // the overlap: compare, never write (B18)
            let count = Int(min(Int64(data.count), written - position))
            let start = Int(position - plan.from)
            let same = overlapBytes.withUnsafeBytes { memcmp($0.baseAddress! + start, data.baseAddress!, count) == 0 }
            guard same else {
                failure = .overlapMismatch(offset: position)
                return false
            }
            position += Int64(count)
            data = UnsafeRawBufferPointer(rebasing: data[count...])
        }
        var overlong = false
        if let limit = plan.end ?? plan.total, position + Int64(data.count) > limit {  // E47, D41
            data = UnsafeRawBufferPointer(rebasing: data[..<Int(max(0, limit - position))])
            overlong = true
        }
        if let limit = limits.maxLength, position + Int64(data.count) > limit {
            failure = .tooLarge(length: plan.total, limit: limit)
            return false
        }
        if written >= nextSpaceCheck, let problem = spaceProblem() {
            failure = problem
            return false
        }
        if !data.isEmpty, let pipeline {
            if let error = pipeline.append(data) {
                failure = .disk(error)
                return false
            }
            written += Int64(data.count)
            position += Int64(data.count)
            bytesWritten += Int64(data.count)
        }
        meter.report(bytes: written, total: plan.total)
        if overlong {
            failure = .overlong(limit: plan.end ?? plan.total ?? 0)
            return false
        }
        return true
    }

    /// Checked every `checkInterval` bytes written (one `statvfs`, nothing per chunk of the transfer).
    private func spaceProblem() -> Failure? {
        nextSpaceCheck = written + limits.checkInterval
        guard limits.minFreeSpace > 0 else { return nil }
        do throws(SystemError) {
            let available = try limits.freeSpace(staging.directory)
            return available < limits.minFreeSpace
                ? .insufficientSpace(needed: limits.minFreeSpace, available: available) : nil
        } catch {
            return .disk(error)
        }
    }

    /// Commits whatever was written (E46) and waits until it is durable. Call once the transfer has ended.
    func finish() {
        guard let pipeline else { return }
        let (durable, error) = pipeline.close()
        journal = durable
        if let error, failure == nil { failure = .disk(error) }
        self.pipeline = nil
    }

    /// Records the length of a body that declared none, once it ended cleanly (E48).
    func adoptLengthAtEnd() throws(SystemError) {
        var next = journal
        next.length = written
        try staging.commit(next)
        journal = next
    }
}
