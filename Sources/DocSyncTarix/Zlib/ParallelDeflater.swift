import CZlib
import DocSyncSupport

/// Gzip-compresses a tar stream with a full flush before every record, on worker threads of its own.
///
/// A full flush resets deflate's dictionary, so each record's compressed bytes depend on that record alone: the
/// producer (the thread inflating and walking the source) cuts the stream into jobs of whole records — a record
/// larger than a job goes in pieces to one worker, deflated on without a flush until its end — and `workers` threads
/// compress them, each with its own raw deflate stream. The producer writes the finished jobs in order after the gzip
/// header, learns each record's compressed offset as it does (`onFlushPoint`), and ends the file with a final block
/// and a trailer whose CRC-32 is the jobs' CRCs joined with `crc32_combine`. Memory is bounded by `jobsInFlight` jobs
/// of `jobBytes` input each (and their output).
///
/// Used by one producer thread; `finish` or `stop` (also run on deinit) ends the workers.
package final class ParallelDeflater {
    /// A job's input: large enough that handing it over costs nothing next to compressing it, small enough that
    /// `jobsInFlight` of them (and their output) stay a few MiB.
    package static let defaultJobBytes = 256 << 10

    /// Gzip member header: deflate, no name, mtime 0, "fastest" at level 1 (as zlib writes it), Unix.
    static func header(level: Int32) -> [UInt8] { [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, level == 1 ? 4 : 0, 3] }

    private let shared: Shared
    private let sink: FileSink
    private let onFlushPoint: (_ position: Int64, _ offset: Int64) throws(TarixError) -> Void
    private let jobBytes: Int
    private let jobsInFlight: Int
    private let level: Int32
    /// Jobs handed to workers, oldest first (written in this order).
    private var inFlight: [DeflateJob] = []
    private var spare: [DeflateJob] = []
    private var current: DeflateJob
    /// The worker compressing the record `current` continues (a record cut between jobs stays on one stream).
    private var pinned: Int?
    private var crc: UInt = 0
    private var position: Int64 = 0
    private var written: Int64 = 0
    private var stopped = false

    /// `sink`: the file (the header is written at once). `onFlushPoint(position, offset)`: every record start's
    /// uncompressed position with the compressed offset of its flush point, in order, once the jobs before it are
    /// written. `workers`: compressing threads.
    init(
        level: Int32, sink: FileSink, workers: Int = 2, jobBytes: Int = defaultJobBytes, jobsInFlight: Int = 8,
        onFlushPoint: @escaping (_ position: Int64, _ offset: Int64) throws(TarixError) -> Void
    ) throws(TarixError) {
        self.level = level
        self.sink = sink
        self.jobBytes = jobBytes
        self.jobsInFlight = max(jobsInFlight, workers)
        self.onFlushPoint = onFlushPoint
        let header = Self.header(level: level)
        try typed { try header.withUnsafeBytes { bytes in try sink.append(bytes) } }
        written = Int64(header.count)
        var deflaters: [Deflater] = []
        for _ in 0..<max(workers, 1) { deflaters.append(try Deflater(level: level)) }
        current = DeflateJob(capacity: jobBytes)
        // Nothing throws from here on: `stop` (deinit) waits for every worker `Shared` counts.
        shared = Shared(workers: deflaters.count)
        for (index, deflater) in deflaters.enumerated() {
            WorkerThread.start(name: "docsync-deflate") { [shared] in shared.work(index, deflater) }
        }
    }

    deinit { stop() }

    /// Uncompressed bytes taken so far.
    var totalIn: Int64 { position }

    /// The next byte starts a record: a full flush goes before it.
    func recordStart() throws(TarixError) {
        if current.count >= jobBytes / 2 { try submit(endsAtBoundary: true) }
        current.starts.append(current.count)
    }

    /// Takes the next bytes of the stream.
    func write(_ bytes: UnsafeRawBufferPointer) throws(TarixError) {
        var rest = bytes
        while !rest.isEmpty {
            if current.isFull { try submit(endsAtBoundary: false) }
            let n = current.append(rest)
            position += Int64(n)
            rest = UnsafeRawBufferPointer(rebasing: rest[n...])
        }
    }

    /// Compresses what is left, writes the final block and the gzip trailer (the caller flushes the sink). Returns
    /// the compressed size.
    func finish() throws(TarixError) -> Int64 {
        try submit(endsAtBoundary: true)
        try drain(keeping: 0)
        stop()
        guard inFlight.isEmpty else { throw .io("zlib", "a deflate worker stopped before its jobs were done") }
        // An empty final block (fixed Huffman codes: BFINAL, BTYPE 01, end of block) ends the deflate stream.
        var tail: [UInt8] = [0x03, 0x00]
        for shift in stride(from: 0, to: 32, by: 8) { tail.append(UInt8(truncatingIfNeeded: crc >> UInt(shift))) }
        for shift in stride(from: 0, to: 32, by: 8) { tail.append(UInt8(truncatingIfNeeded: position >> Int64(shift))) }
        try typed { try tail.withUnsafeBytes { bytes in try sink.append(bytes) } }
        written += Int64(tail.count)
        return written
    }

    /// Ends the workers (idempotent); jobs not written are dropped.
    func stop() {
        guard !stopped else { return }
        stopped = true
        shared.stop()
    }

    /// Hands `current` to a worker (the pinned one when it continues a record, else the least busy) and starts the
    /// next job, writing finished jobs and waiting while `jobsInFlight` are out.
    private func submit(endsAtBoundary: Bool) throws(TarixError) {
        guard current.count > 0 || !current.starts.isEmpty else { return }
        current.endsAtBoundary = endsAtBoundary
        let job = current
        job.worker = shared.enqueue(job, pinnedTo: pinned)
        pinned = endsAtBoundary ? nil : job.worker
        inFlight.append(job)
        current = spare.popLast() ?? DeflateJob(capacity: jobBytes)
        current.reset(at: position)
        try drain(keeping: jobsInFlight - 1)
    }

    /// Writes finished jobs in order; waits for the oldest while more than `keeping` are out.
    private func drain(keeping: Int) throws(TarixError) {
        while let job = inFlight.first {
            guard shared.awaitDone(job, wait: inFlight.count > keeping) else { return }
            inFlight.removeFirst()
            if let failure = job.failure { throw failure }
            for (start, offset) in zip(job.starts, job.flushOffsets) {
                try onFlushPoint(job.position + Int64(start), written + Int64(offset))
            }
            try sink.append(job.output.written)
            written += Int64(job.output.count)
            crc = job.count == 0 ? crc : crc32_combine(crc, job.crc, off_t(job.count))
            spare.append(job)
        }
    }
}

extension ParallelDeflater {
    /// The state the producer and the workers share, guarded by `lock`: condition `i` wakes worker `i`, the last one
    /// the producer.
    ///
    /// `@unchecked Sendable`: every field is read and written only with `lock` held.
    final class Shared: @unchecked Sendable {
        private let lock: ConditionLock
        private var queues: [[DeflateJob]]
        private var done: Set<ObjectIdentifier> = []
        private var stopping = false
        private var running: Int
        private var producer: Int { queues.count }

        init(workers: Int) {
            lock = ConditionLock(conditions: workers + 1)
            queues = Array(repeating: [], count: workers)
            running = workers
        }

        /// Queues `job` for `worker`, or for the worker with the fewest jobs queued; returns the worker.
        func enqueue(_ job: DeflateJob, pinnedTo worker: Int?) -> Int {
            lock.withLock {
                let chosen = worker ?? queues.indices.min { queues[$0].count < queues[$1].count }!
                queues[chosen].append(job)
                lock.broadcast(chosen)
                return chosen
            }
        }

        /// True once `job` is compressed (it is then the producer's again); with `wait`, waits for it.
        func awaitDone(_ job: DeflateJob, wait: Bool) -> Bool {
            lock.withLock {
                while wait, !done.contains(ObjectIdentifier(job)), running > 0 { lock.wait(on: producer) }
                return done.remove(ObjectIdentifier(job)) != nil
            }
        }

        /// Stops every worker and waits until none is left running.
        func stop() {
            lock.withLock {
                stopping = true
                lock.broadcastAll()
                while running > 0 { lock.wait(on: producer) }
                queues = queues.map { _ in [] }
            }
        }

        /// Worker `index`'s loop: compresses its queue's jobs in order with its own stream.
        func work(_ index: Int, _ deflater: Deflater) {
            lock.lock()
            while true {
                while queues[index].isEmpty, !stopping { lock.wait(on: index) }
                if stopping { break }
                let job = queues[index][0]
                lock.unlock()
                job.compress(with: deflater)
                lock.lock()
                queues[index].removeFirst()
                done.insert(ObjectIdentifier(job))
                lock.broadcast(producer)
            }
            running -= 1
            lock.broadcast(producer)
            lock.unlock()
        }
    }
}
