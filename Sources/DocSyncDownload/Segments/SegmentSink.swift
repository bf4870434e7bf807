import DocSyncHTTP
import DocSyncSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Receives one segment transfer on its thread: judges the head with `SegmentResponsePolicy`, compares the overlap
/// below a resumed segment start, writes the body with pwrite at its offsets (never past the segment's current end,
/// which a steal may lower), hashes every chunk and commits at chunk boundaries and every `commitInterval`.
final class SegmentSink: HTTPResponseReceiver {
    private let store: SegmentStore
    private let assignment: SegmentScheduler.Assignment
    private let context: SegmentResponsePolicy.Context
    private let commitInterval: Double
    /// The request starts here; bytes below `assignment.from` are compared, not written.
    private let requestFrom: Int64

    private(set) var verdict: SegmentVerdict = .ignore
    private(set) var sawFinalHead = false
    /// The segment's end was reached (or lowered by a steal): the transfer was stopped on purpose.
    private(set) var reachedEnd = false
    private(set) var failure: SegmentWorker.Failure?
    private(set) var bytesWritten: Int64 = 0

    private var position: Int64
    private var overlap: [UInt8] = []
    private var hasher: SHA256

    init(
        store: SegmentStore, assignment: SegmentScheduler.Assignment, context: SegmentResponsePolicy.Context,
        requestFrom: Int64, chunkState: [UInt8], commitInterval: Double
    ) {
        self.store = store
        self.assignment = assignment
        self.context = context
        self.requestFrom = requestFrom
        self.commitInterval = commitInterval
        position = requestFrom
        hasher = SHA256(savedState: chunkState) ?? SHA256()
    }

    func head(_ head: HTTPResponseHead) {
        let verdict = SegmentResponsePolicy.judge(head, context)
        if verdict == .ignore { return }
        self.verdict = verdict
        sawFinalHead = true
        guard case .accept = verdict, requestFrom < assignment.from else { return }
        let raw = UnsafeMutableRawBufferPointer.allocate(byteCount: Int(assignment.from - requestFrom), alignment: 16)
        defer { raw.deallocate() }
        do throws(SystemError) {
            if try store.staging.read(into: raw, at: requestFrom) {
                overlap = Array(raw)
            } else {
                failure = .overlapMismatch(requestFrom)
            }
        } catch {
            failure = .disk(error)
        }
    }

    func body(_ chunk: UnsafeRawBufferPointer) -> Bool {
        guard case .accept = verdict, failure == nil else { return false }
        var data = chunk
        if position < assignment.from {  // the overlap: compare, never write (B18)
            let count = Int(min(Int64(data.count), assignment.from - position))
            let start = Int(position - requestFrom)
            let same = overlap.withUnsafeBytes { memcmp($0.baseAddress! + start, data.baseAddress!, count) == 0 }
            guard same else {
                failure = .overlapMismatch(position)
                return false
            }
            position += Int64(count)
            data = UnsafeRawBufferPointer(rebasing: data[count...])
        }
        while !data.isEmpty {
            let allowed = store.claim(connection: assignment.connection, at: position, count: Int64(data.count))
            guard allowed > 0 else {
                reachedEnd = true
                return false
            }
            let piece = UnsafeRawBufferPointer(rebasing: data[..<Int(allowed)])
            if let error = write(piece) {
                failure = .disk(error)
                return false
            }
            data = UnsafeRawBufferPointer(rebasing: data[Int(allowed)...])
        }
        return true
    }

    /// Writes, hashes (splitting at chunk ends) and records one claimed piece; commits when a chunk ended or the
    /// interval passed.
    private func write(_ piece: UnsafeRawBufferPointer) -> SystemError? {
        var done = 0
        while done < piece.count {
            let n = pwrite(store.staging.fd, piece.baseAddress! + done, piece.count - done, off_t(position) + off_t(done))
            if n < 0 {
                if errno == EINTR { continue }
                return SystemError("pwrite", path: store.staging.partPath)
            }
            done += n
        }
        var finished: [(index: Int64, digest: [UInt8])] = []
        var rest = piece
        var at = position
        let chunkSize = store.chunkSize
        let length = context.identity.length
        while !rest.isEmpty {
            let chunkEnd = min((at / chunkSize + 1) * chunkSize, length)
            let count = Int(min(Int64(rest.count), chunkEnd - at))
            hasher.update(UnsafeRawBufferPointer(rebasing: rest[..<count]))
            at += Int64(count)
            rest = UnsafeRawBufferPointer(rebasing: rest[count...])
            if at == chunkEnd {
                finished.append(((chunkEnd - 1) / chunkSize, hasher.finalize().bytes))
                hasher = SHA256()
            }
        }
        position = at
        bytesWritten += Int64(piece.count)
        store.wrote(
            connection: assignment.connection, segment: assignment.segment, to: position, count: Int64(piece.count),
            chunkState: hasher.savedState, finished: finished)
        do throws(SystemError) { try store.commit(force: !finished.isEmpty, interval: commitInterval) } catch {
            return error
        }
        return nil
    }

    /// Asks for this transfer's last bytes to be made durable (a transfer that stopped between commits); the
    /// download's final commit waits for them.
    func finish() {
        guard bytesWritten > 0, failure == nil else { return }
        do throws(SystemError) { try store.requestCommit() } catch { failure = .disk(error) }
    }
}
