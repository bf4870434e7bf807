import CZlib
import DocSyncSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Inflates the raw deflate stream of a gzip member on worker threads, handing the bytes on in order.
///
/// A full flush resets deflate's dictionary and ends with an empty stored block, whose last four bytes are
/// `00 00 FF FF`: the reading thread cuts the compressed bytes into jobs at such markers (the first one past
/// `jobBytes / 2`) and workers inflate each job cold from its start, restarting cold at every marker where the
/// inflater stops exactly between blocks. A job's result stands only once the job before it ended exactly between
/// blocks at its start, which proves that start a block boundary of the one true decoding, so a marker made of data
/// costs nothing but a skipped candidate; where a job did not end so (a marker of data at its end, a job cut
/// mid-stream because no marker came, an output larger than a job's room), the reading thread copies that inflater's
/// state and goes on itself until a job ends between blocks. A back-reference across a restart is a point that was
/// no full flush: `notFlushed`. Every byte reaches `output` in order, every restart is reported (`coldPoint`) before
/// the bytes it starts, and the CRC-32 of the output is joined from the jobs' with `crc32_combine`.
///
/// Memory: `jobsInFlight` jobs of `jobBytes` input and `outputBytes` output each. Used by one thread; `run` ends the
/// workers (so does deinit).
final class ParallelInflater {
    /// A job's input capacity (cut at the first marker past half of it).
    static let defaultJobBytes = 256 << 10
    /// A job's output room: 16 times its target input; beyond it, the reading thread inflates the rest itself.
    static let defaultOutputBytes = defaultJobBytes * 8

    /// What `run` returns: the CRC-32 and length of the output, and the bytes read past the deflate stream's end
    /// (the gzip trailer; more than 8 when something follows it).
    struct Result {
        var crc: UInt
        var size: Int64
        var tail: [UInt8]
    }

    private let name: String
    private let workers: Int
    private let jobBytes: Int
    private let outputBytes: Int
    private let jobsInFlight: Int
    private let shared: Shared
    private var inFlight: [InflateJob] = []
    private var spare: [InflateJob] = []
    private let serial: Inflater
    /// The serial inflater stands mid-stream at the start of the next job (its own start is no proven flush point).
    private var serialOpen = false
    private var segment: Int64 = 0
    private var crc: UInt = 0
    private var produced: Int64 = 0
    private var ended = false
    private var tail: [UInt8] = []
    private let scratch: UnsafeMutableRawBufferPointer
    private var stopped = false

    /// `workers`: inflating threads (0: the reading thread inflates everything itself, in the same jobs).
    init(
        name: String, workers: Int = 2, jobBytes: Int = defaultJobBytes, outputBytes: Int = defaultOutputBytes,
        jobsInFlight: Int = 6
    ) throws(TarixError) {
        self.name = name
        self.workers = max(workers, 0)
        self.jobBytes = max(jobBytes, 64)
        self.outputBytes = max(outputBytes, 64)
        self.jobsInFlight = max(jobsInFlight, workers, 1)
        serial = try Inflater(windowBits: -MAX_WBITS)
        scratch = .allocate(byteCount: 64 << 10, alignment: 16)
        shared = Shared(workers: self.workers)
        for _ in 0..<self.workers {
            WorkerThread.start(name: "docsync-inflate") { [shared, name] in shared.work(name: name) }
        }
    }

    deinit {
        stop()
        scratch.deallocate()
    }

    /// Ends the workers (idempotent).
    func stop() {
        guard !stopped else { return }
        stopped = true
        shared.stop()
    }

    /// What `run` hands its caller, in order.
    private struct Receiver {
        let output: (UnsafeRawBufferPointer) throws(TarixError) -> Void
        let coldPoint: (Int64) throws(TarixError) -> Void
    }

    /// Inflates the deflate stream starting at `reader`'s position (the first job starts cold there) to its end.
    /// `output`: every inflated byte, in order; `coldPoint(offset)`: a full flush point proven at file offset
    /// `offset`, before the bytes that follow it.
    func run(
        _ reader: inout ArchiveWalk.Reader, output: (UnsafeRawBufferPointer) throws(TarixError) -> Void,
        coldPoint: (Int64) throws(TarixError) -> Void
    ) throws(TarixError) -> Result {
        defer { stop() }
        return try typed {
            try withoutActuallyEscaping(output) { output in
                try withoutActuallyEscaping(coldPoint) { coldPoint in
                    try run(&reader, Receiver(output: output, coldPoint: coldPoint))
                }
            }
        }
    }

    private func run(_ reader: inout ArchiveWalk.Reader, _ receiver: Receiver) throws(TarixError) -> Result {
        var current = try job(at: reader.position)
        var previous: [UInt8] = []  // the last bytes before a continuation job (a marker may straddle the cut)
        while !(ended && tail.count > 8) {
            if reader.isEmpty, try !reader.fill() { break }
            let before = current.count
            let taken = reader.withInput { input in
                let n = min(input.count, current.input.count - current.count)
                if n > 0 {
                    (current.input.baseAddress! + current.count).copyMemory(from: input.baseAddress!, byteCount: n)
                }
                return n
            }
            reader.advance(taken)
            current.count += taken
            scan(current, from: before, previous: previous)
            // Cut at the first marker past half a job; a full job without one is cut at its last marker, or
            // mid-stream when it has none (the next job is then the walk's own).
            let target = jobBytes / 2
            var cut: Int?
            if current.count >= target, let at = current.candidates.first(where: { $0 >= target }) {
                cut = at
            } else if current.count == current.input.count {
                cut = current.candidates.last ?? current.count
            }
            guard let cut else { continue }
            let next = try job(at: current.base + Int64(cut))
            if cut < current.count {
                let rest = current.count - cut
                next.input.baseAddress!.copyMemory(from: current.input.baseAddress! + cut, byteCount: rest)
                next.count = rest
                next.candidates = current.candidates.filter { $0 > cut }.map { $0 - cut }
                next.lead = Array(UnsafeRawBufferPointer(rebasing: current.input[(cut - min(cut, 5))..<cut]))
                current.candidates.removeAll { $0 > cut }
                current.count = cut
            } else if current.candidates.last != cut {
                next.continuation = true
                previous = Array(current.inputBytes.suffix(3))
            } else {
                next.lead = Array(current.inputBytes.suffix(5))
            }
            try submit(current, receiver)
            current = next
        }
        if current.count > 0 { try submit(current, receiver) } else { spare.append(current) }
        try drain(keeping: 0, receiver)
        guard ended else { throw .corruptArchive(name, "truncated: the gzip stream ends early") }
        return Result(crc: crc, size: produced, tail: tail)
    }

    private func job(at base: Int64) throws(TarixError) -> InflateJob {
        let job: InflateJob
        if let reused = spare.popLast() {
            job = reused
        } else {
            job = try InflateJob(inputBytes: jobBytes, outputBytes: outputBytes)
        }
        job.reset(at: base)
        return job
    }

    private static let marker: [UInt8] = [0, 0, 0xFF, 0xFF]

    /// Adds the candidates the bytes from `from` on complete (a marker may begin up to 3 bytes before them, or in
    /// `previous`, the bytes before a continuation job).
    private func scan(_ job: InflateJob, from: Int, previous: [UInt8]) {
        if job.continuation, from < 3 {
            for k in 1...3 where previous.count >= k && 4 - k > from && 4 - k <= job.count {
                let joined = Array(previous.suffix(k)) + Array(job.inputBytes.prefix(4 - k))
                if joined == Self.marker { job.candidates.append(4 - k) }
            }
        }
        // Each 0xFF found (memchr) that is the third byte of a marker.
        var at = max(0, from - 3) + 2
        let bytes = job.input.baseAddress!.assumingMemoryBound(to: UInt8.self)
        while at + 1 < job.count {
            guard let hit = memchr(bytes + at, 0xFF, job.count - 1 - at) else { break }
            let index = UnsafeRawPointer(bytes).distance(to: UnsafeRawPointer(hit))
            if bytes[index + 1] == 0xFF, bytes[index - 1] == 0, bytes[index - 2] == 0 {
                job.candidates.append(index + 2)
            }
            at = index + 1
        }
    }

    /// Queues `job` (for a worker unless only the walk can inflate it), then handles finished jobs in order while
    /// more than `jobsInFlight - 1` are out.
    private func submit(_ job: InflateJob, _ receiver: Receiver) throws(TarixError) {
        inFlight.append(job)
        if workers > 0, !job.continuation, !ended {
            job.submitted = true
            shared.enqueue(job)
        }
        try drain(keeping: jobsInFlight - 1, receiver)
    }

    /// Takes finished jobs in order: the oldest is waited for while more than `keeping` are out; jobs for the walk
    /// itself are inflated as soon as they are the oldest.
    private func drain(keeping: Int, _ receiver: Receiver) throws(TarixError) {
        while let job = inFlight.first {
            if job.submitted {
                guard shared.awaitDone(job, wait: inFlight.count > keeping) else { return }
            }
            inFlight.removeFirst()
            try take(job, receiver)
            spare.append(job)
        }
    }

    /// Hands on one job's bytes (inflating on from where its worker stopped, or all of it, when needed).
    private func take(_ job: InflateJob, _ receiver: Receiver) throws(TarixError) {
        if ended {
            tail += job.inputBytes
            return
        }
        let outcome: InflateOutcome
        if serialOpen || !job.submitted {
            if !serialOpen {
                // A flush point proven by the job before, inflated here (no workers).
                serial.reset()
                segment = job.base
                for point in job.flushPoints(at: 0) { try receiver.coldPoint(point) }
            }
            outcome = try inflateSerially(job, from: 0, receiver)
        } else {
            try deliver(job, receiver)
            switch job.outcome {
            case .closed, .streamEnd: outcome = job.outcome
            case .failed(let error): throw error
            case .open(let at):
                try serial.copy(from: job.inflater)
                segment = job.segment
                outcome = try inflateSerially(job, from: at, receiver)
            }
        }
        switch outcome {
        case .closed: serialOpen = false
        case .open: serialOpen = true
        case .streamEnd(let at):
            ended = true
            tail += UnsafeRawBufferPointer(rebasing: job.input[at..<job.count])
        case .failed(let error): throw error
        }
    }

    /// A worker's output and restarts, in order.
    private func deliver(_ job: InflateJob, _ receiver: Receiver) throws(TarixError) {
        var at = 0
        for (output, offset) in job.coldPoints {
            if output > at { try receiver.output(UnsafeRawBufferPointer(rebasing: job.output[at..<output])) }
            at = max(at, output)
            try receiver.coldPoint(offset)
        }
        if job.produced > at { try receiver.output(UnsafeRawBufferPointer(rebasing: job.output[at..<job.produced])) }
        if job.produced > 0 { crc = crc32_combine(crc, job.crc, off_t(job.produced)) }
        produced += Int64(job.produced)
    }

    /// Inflates `job` from `from` on this thread, with the serial inflater standing there.
    private func inflateSerially(
        _ job: InflateJob, from: Int, _ receiver: Receiver
    ) throws(TarixError) -> InflateOutcome {
        var sink = SerialOutput(owner: self, receiver: receiver)
        let outcome = try InflateJob.inflate(
            job.inputBytes, base: job.base, from: from, candidates: job.candidates, inflater: serial,
            segment: &segment, name: name, into: &sink)
        if case .open(let at) = outcome, at != job.count {
            throw .io(name, "inflate stopped inside a job at offset \(job.base + Int64(at))")
        }
        return outcome
    }

    /// The output side of the reading thread's own inflating: a scratch buffer handed on at once.
    private struct SerialOutput: InflateOutput {
        let owner: ParallelInflater
        let receiver: Receiver
        func space() -> UnsafeMutableRawBufferPointer { owner.scratch }
        func wrote(_ count: Int) throws(TarixError) {
            let bytes = UnsafeRawBufferPointer(rebasing: owner.scratch[0..<count])
            owner.crc = CZlib.crc32(owner.crc, bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt32(count))
            owner.produced += Int64(count)
            try receiver.output(bytes)
        }
        func coldPoint(at offset: Int64) throws(TarixError) { try receiver.coldPoint(offset) }
    }
}

extension ParallelInflater {
    /// The queue the reading thread and the workers share, guarded by `lock`: condition 0 wakes the workers, 1 the
    /// reading thread.
    ///
    /// `@unchecked Sendable`: every field is read and written only with `lock` held.
    final class Shared: @unchecked Sendable {
        private let lock = ConditionLock(conditions: 2)
        private var queue: [InflateJob] = []
        private var done: Set<ObjectIdentifier> = []
        private var stopping = false
        private var running: Int

        init(workers: Int) { running = workers }

        func enqueue(_ job: InflateJob) {
            lock.withLock {
                queue.append(job)
                lock.broadcast(0)
            }
        }

        /// True once `job` is inflated (it is then the reading thread's again); with `wait`, waits for it.
        func awaitDone(_ job: InflateJob, wait: Bool) -> Bool {
            lock.withLock {
                while wait, !done.contains(ObjectIdentifier(job)), running > 0 { lock.wait(on: 1) }
                return done.remove(ObjectIdentifier(job)) != nil
            }
        }

        /// Stops every worker (a job being inflated is finished first) and waits until none is left running.
        func stop() {
            lock.withLock {
                stopping = true
                lock.broadcastAll()
                while running > 0 { lock.wait(on: 1) }
                queue.removeAll()
            }
        }

        /// A worker's loop: inflates queued jobs, oldest first.
        func work(name: String) {
            lock.lock()
            while true {
                while queue.isEmpty, !stopping { lock.wait(on: 0) }
                if stopping { break }
                let job = queue.removeFirst()
                lock.unlock()
                job.inflateCold(name: name)
                lock.lock()
                done.insert(ObjectIdentifier(job))
                lock.broadcast(1)
            }
            running -= 1
            lock.broadcast(1)
            lock.unlock()
        }
    }
}
