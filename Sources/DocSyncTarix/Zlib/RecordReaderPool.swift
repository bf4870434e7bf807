import CZlib
import Synchronization

/// Which decoder inflates a tarix record: ISA-L's (the default, 2–3× faster) or zlib's (kept as the reference the
/// tests compare ISA-L's reads with, byte for byte).
package enum RecordInflate: Sendable {
    case isal
    case zlib
}

/// What one read of a tarix record needs beyond its output, kept between reads instead of made per page: a raw
/// inflate stream (ISA-L's, or zlib's `windowBits` -15 made on first use), reset rather than set up and torn down
/// (the decoder's state and history stay allocated), and a compressed-input buffer. Used by one reader at a time:
/// taken from ``RecordReaderPool`` and given back.
///
/// `@unchecked Sendable`: one reader uses it at a time; the pool's `Mutex` hands it from one to the next.
final class RecordReader: @unchecked Sendable {
    /// Compressed bytes read per `pread`, at most.
    static let inputCapacity = 32 << 10

    let isal = RawInflater()
    private var zlibInflater: Inflater?
    let input: UnsafeMutableRawBufferPointer

    init() {
        input = .allocate(byteCount: Self.inputCapacity, alignment: 16)
    }

    /// zlib's raw inflate stream, made on first use.
    func zlib() throws(TarixError) -> Inflater {
        if let zlibInflater { return zlibInflater }
        let made = try Inflater(windowBits: -MAX_WBITS)
        zlibInflater = made
        return made
    }

    deinit { input.deallocate() }
}

/// A few ``RecordReader``s shared by every open store of the process (a server reads from one thread per core):
/// at most `capacity` are kept; a read that finds none idle makes one, and one given back to a full pool is freed.
/// Thread-safe.
enum RecordReaderPool {
    private static let capacity = 8
    private static let idle = Mutex<[RecordReader]>([])

    /// Runs `body` with an idle reader (the `engine`'s stream reset), given back afterwards.
    static func with<T>(_ engine: RecordInflate, _ body: (RecordReader) throws(TarixError) -> T) throws(TarixError)
        -> T
    {
        let reader = idle.withLock({ $0.popLast() }) ?? RecordReader()
        switch engine {
        case .isal: reader.isal.reset()
        case .zlib: try reader.zlib().reset()
        }
        defer {
            idle.withLock { pool in
                if pool.count < capacity { pool.append(reader) }
            }
        }
        return try body(reader)
    }
}
