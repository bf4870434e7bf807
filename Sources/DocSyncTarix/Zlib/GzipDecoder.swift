import CZlib

/// Inflates a gzip stream (several members in a row, as `gzip -dc` accepts) fed in chunks of any size, handing the
/// uncompressed bytes to a closure. zlib checks each member's CRC-32 and length.
package final class GzipDecoder {
    private let inflater: Inflater
    private var output = [UInt8](repeating: 0, count: 256 << 10)
    private var inMember = true
    private var sawMember = false
    private let name: String
    /// Compressed bytes consumed.
    package private(set) var consumed: Int64 = 0

    package init(name: String) throws(TarixError) {
        self.name = name
        inflater = try Inflater(windowBits: MAX_WBITS + 16)
    }

    /// Inflates `chunk`, calling `body` with each run of output.
    package func write(
        _ chunk: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) throws(TarixError) -> Void
    ) throws(TarixError) {
        var rest = chunk
        while !rest.isEmpty {
            if !inMember {
                // Between members: the next byte must start another gzip member.
                guard rest[0] == 0x1F else {
                    throw .corruptArchive(name, "data after the end of the gzip stream")
                }
                inflater.reset()
                inMember = true
            }
            let capacity = output.count
            let step = output.withUnsafeMutableBytes { out in
                inflater.inflate(rest, UnsafeMutableRawBufferPointer(rebasing: out[0..<capacity]), flush: Z_NO_FLUSH)
            }
            rest = UnsafeRawBufferPointer(rebasing: rest[step.consumed...])
            consumed += Int64(step.consumed)
            if step.produced > 0 {
                try typed {
                    try output.withUnsafeBytes { out in
                        try body(UnsafeRawBufferPointer(rebasing: out[0..<step.produced]))
                    }
                }
            }
            switch step.code {
            case Z_OK: continue
            case Z_STREAM_END:
                inMember = false
                sawMember = true
            case Z_BUF_ERROR where step.consumed == 0 && step.produced == 0:
                throw .corruptArchive(name, "inflate made no progress")
            case Z_BUF_ERROR: continue
            default:
                throw .corruptArchive(name, "not valid gzip data: \(inflater.message)")
            }
        }
    }

    /// Checks the stream ended at the end of a member.
    package func finish() throws(TarixError) {
        guard !inMember else {
            throw .corruptArchive(name, consumed == 0 ? "empty: no gzip data" : "truncated: the gzip stream ends early")
        }
    }
}
