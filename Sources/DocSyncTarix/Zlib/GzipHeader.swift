/// RFC 1952 member header and trailer, parsed by hand so the deflate data behind them can be inflated raw.
enum GzipHeader {
    /// Bytes a header may take (the file name and comment fields are unbounded in the format).
    static let maxLength = 64 << 10

    enum Parse: Equatable {
        case header(length: Int)
        case needMore
        case invalid(String)
    }

    static func parse(_ bytes: UnsafeRawBufferPointer) -> Parse {
        guard bytes.count >= 10 else { return bytes.count >= 2 && !magicOK(bytes) ? .invalid("not gzip") : .needMore }
        guard magicOK(bytes) else { return .invalid("not a gzip file (no 1f 8b magic)") }
        guard bytes[2] == 8 else { return .invalid("unknown gzip compression method \(bytes[2])") }
        let flags = bytes[3]
        guard flags & 0xE0 == 0 else { return .invalid("reserved gzip header flags set") }
        var at = 10
        if flags & 4 != 0 {
            guard bytes.count >= at + 2 else { return .needMore }
            at += 2 + (Int(bytes[at]) | (Int(bytes[at + 1]) << 8))
        }
        for flag: UInt8 in [8, 16] where flags & flag != 0 {
            while true {
                guard at < bytes.count else {
                    return bytes.count >= maxLength ? .invalid("gzip header too long") : .needMore
                }
                at += 1
                if bytes[at - 1] == 0 { break }
            }
        }
        if flags & 2 != 0 { at += 2 }
        guard at <= bytes.count else { return bytes.count >= maxLength ? .invalid("gzip header too long") : .needMore }
        return .header(length: at)
    }

    private static func magicOK(_ bytes: UnsafeRawBufferPointer) -> Bool { bytes[0] == 0x1F && bytes[1] == 0x8B }

    /// The trailer's CRC-32 and length (mod 2^32), little-endian.
    static func trailer(_ bytes: UnsafeRawBufferPointer) -> (crc: UInt32, size: UInt32) {
        func word(_ at: Int) -> UInt32 { (0..<4).reduce(0) { $0 | UInt32(bytes[at + $1]) << (8 * $1) } }
        return (word(0), word(4))
    }
}
