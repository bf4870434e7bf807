import CZlib
import Synchronization

/// Which decoder inflates a tarix record. ISA-L's inflates long records 1.6–1.8× faster than zlib's, but costs more
/// to start (its larger Huffman tables are built for every deflate block), so for a page under 64 KiB zlib's is as
/// fast or faster (Benchmarks/README.md, htarixpage), and libdeflate's whole-buffer inflate faster still (no stream
/// state, no window copy) where the record's compressed end is known: `bySize` (the default) picks by the record's
/// length.
package enum RecordInflate: Sendable {
    /// ISA-L for records of ``isalFromBlocks`` blocks or more; below, libdeflate when the record's compressed end
    /// is known (a store opened with a map of locations), else zlib.
    case bySize
    /// ISA-L's raw inflate (``RawInflater``).
    case isal
    /// zlib's raw inflate (``Inflater``).
    case zlib
    /// libdeflate's whole-buffer inflate (``WholeInflater``) of a record shorter than ``isalFromBlocks`` blocks
    /// whose compressed end is known and at most ``RecordReader/inputCapacity`` bytes away: a record that is not
    /// is refused with an error (for tests and benchmarks; `bySize` reads such a record with zlib instead).
    case libdeflate

    /// Records this long (512-byte blocks: 64 KiB) or longer are inflated by ISA-L under `bySize`.
    static let isalFromBlocks: Int64 = 128

    /// The decoder for a record of `blocks` blocks.
    func resolved(blocks: Int64) -> RecordInflate {
        guard self == .bySize else { return self }
        return blocks >= Self.isalFromBlocks ? .isal : .libdeflate
    }
}

/// What one read of a tarix record needs beyond its output, kept between reads instead of made per page: a raw
/// inflate stream (ISA-L's or zlib's `windowBits` -15, each made on first use), reset rather than set up and torn down
/// (the decoder's state and history stay allocated), libdeflate's decompressor and the buffer its whole record is
/// inflated into, and a compressed-input buffer. Used by one reader at a time:
/// taken from ``RecordReaderPool`` and given back.
///
/// `@unchecked Sendable`: one reader uses it at a time; the pool's `Mutex` hands it from one to the next.
final class RecordReader: @unchecked Sendable {
    /// Compressed bytes read per `pread`, at most.
    static let inputCapacity = 32 << 10

    private var isalInflater: RawInflater?
    private var zlibInflater: Inflater?
    private var wholeInflater: WholeInflater?
    private var wholeOutput: UnsafeMutableRawBufferPointer?
    let input: UnsafeMutableRawBufferPointer

    init() {
        input = .allocate(byteCount: Self.inputCapacity, alignment: 16)
    }

    /// libdeflate's decompressor and a buffer for a whole record shorter than ``RecordInflate/isalFromBlocks``
    /// blocks, made on first use; nil when libdeflate cannot allocate.
    func whole() -> (WholeInflater, UnsafeMutableRawBufferPointer)? {
        if let wholeInflater, let wholeOutput { return (wholeInflater, wholeOutput) }
        guard let made = WholeInflater() else { return nil }
        let output = UnsafeMutableRawBufferPointer.allocate(
            byteCount: Int(RecordInflate.isalFromBlocks - 1) * 512, alignment: 16)
        wholeInflater = made
        wholeOutput = output
        return (made, output)
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

    deinit {
        input.deallocate()
        wholeOutput?.deallocate()
    }
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
        case .libdeflate: break  // no state between calls
        }
        defer {
            idle.withLock { pool in
                if pool.count < capacity { pool.append(reader) }
            }
        }
        return try body(reader)
    }
}
