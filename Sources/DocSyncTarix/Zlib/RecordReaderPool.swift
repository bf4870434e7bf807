import CZlib
import Synchronization

/// What one read of a tarix record needs beyond its output, kept between reads instead of made per page: a raw
/// (`windowBits` -15) inflate stream, reset with `inflateReset` rather than set up and torn down (zlib's state and
/// 32 KiB window stay allocated), and a compressed-input buffer. Used by one reader at a time: taken from
/// ``RecordReaderPool`` and given back.
///
/// `@unchecked Sendable`: one reader uses it at a time; the pool's `Mutex` hands it from one to the next.
final class RecordReader: @unchecked Sendable {
    /// Compressed bytes read per `pread`, at most.
    static let inputCapacity = 32 << 10

    let inflater: Inflater
    let input: UnsafeMutableRawBufferPointer

    init() throws(TarixError) {
        inflater = try Inflater(windowBits: -MAX_WBITS)
        input = .allocate(byteCount: Self.inputCapacity, alignment: 16)
    }

    deinit { input.deallocate() }
}

/// A few ``RecordReader``s shared by every open store of the process (a server reads from one thread per core):
/// at most `capacity` are kept; a read that finds none idle makes one, and one given back to a full pool is freed.
/// Thread-safe.
enum RecordReaderPool {
    private static let capacity = 8
    private static let idle = Mutex<[RecordReader]>([])

    /// Runs `body` with an idle reader (its stream reset), given back afterwards.
    static func with<T>(_ body: (RecordReader) throws(TarixError) -> T) throws(TarixError) -> T {
        let reader: RecordReader
        if let pooled = idle.withLock({ $0.popLast() }) { reader = pooled } else { reader = try RecordReader() }
        reader.inflater.reset()
        defer {
            idle.withLock { pool in
                if pool.count < capacity { pool.append(reader) }
            }
        }
        return try body(reader)
    }
}
