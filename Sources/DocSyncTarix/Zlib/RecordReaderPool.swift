import CZlib
import Synchronization

/// Which decoder inflates a tarix record. ISA-L's inflates long records 1.6–1.8× faster than zlib's, but costs more
/// to start (its larger Huffman tables are built for every deflate block), so for a page under 64 KiB zlib's is as
/// fast or faster (Benchmarks/README.md, htarixpage): `bySize` (the default) picks by the record's length.
package enum RecordInflate: Sendable {
    /// ISA-L for records of ``isalFromBlocks`` blocks or more, zlib below.
    case bySize
    /// ISA-L's raw inflate (``RawInflater``).
    case isal
    /// zlib's raw inflate (``Inflater``).
    case zlib

    /// Records this long (512-byte blocks: 64 KiB) or longer are inflated by ISA-L under `bySize`.
    static let isalFromBlocks: Int64 = 128

    /// The decoder for a record of `blocks` blocks.
    func resolved(blocks: Int64) -> RecordInflate {
        guard self == .bySize else { return self }
        return blocks >= Self.isalFromBlocks ? .isal : .zlib
    }
}

/// What one read of a tarix record needs beyond its output, kept between reads instead of made per page: a raw
/// inflate stream (ISA-L's or zlib's `windowBits` -15, each made on first use), reset rather than set up and torn down
/// (the decoder's state and history stay allocated), and a compressed-input buffer. Used by one reader at a time:
/// taken from ``RecordReaderPool`` and given back.
///
/// `@unchecked Sendable`: one reader uses it at a time; the pool's `Mutex` hands it from one to the next.
final class RecordReader: @unchecked Sendable {
    /// Compressed bytes read per `pread`, at most.
    static let inputCapacity = 32 << 10

    private var isalInflater: RawInflater?
    private var zlibInflater: Inflater?
    let input: UnsafeMutableRawBufferPointer

    init() {
        input = .allocate(byteCount: Self.inputCapacity, alignment: 16)
    }

    /// ISA-L's raw inflate state (about 100 KiB), made on first use: a server of short pages never needs it.
    func isal() -> RawInflater {
        if let isalInflater { return isalInflater }
        let made = RawInflater()
        isalInflater = made
        return made
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

    /// Runs `body` with an idle reader (the `engine`'s stream reset; `bySize` is resolved by the caller), given back
    /// afterwards.
    static func with<T>(_ engine: RecordInflate, _ body: (RecordReader) throws(TarixError) -> T) throws(TarixError)
        -> T
    {
        let reader = idle.withLock({ $0.popLast() }) ?? RecordReader()
        switch engine {
        case .isal: reader.isal().reset()
        case .zlib, .bySize: try reader.zlib().reset()
        }
        defer {
            idle.withLock { pool in
                if pool.count < capacity { pool.append(reader) }
            }
        }
        return try body(reader)
    }
}
