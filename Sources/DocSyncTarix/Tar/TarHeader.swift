/// One 512-byte tar header block (v7, ustar, GNU), parsed without trusting it: checksum checked, numbers bounded.
struct TarHeader: Equatable {
    static let blockSize = 512

    let name: [UInt8]
    let typeflag: UInt8
    let size: Int64
    let mode: Int64
    let linkName: [UInt8]

    /// Why a block is not a header.
    struct Problem: Error, Equatable {
        let message: String
    }

    /// True for an all-zero block (the end-of-archive marker).
    static func isZero(_ block: UnsafeRawBufferPointer) -> Bool { !block.contains { $0 != 0 } }

    /// Parses a non-zero block; the message says what is wrong.
    static func parse(_ block: UnsafeRawBufferPointer) -> Result<TarHeader, Problem> {
        precondition(block.count == blockSize)
        guard let stored = number(block, 148, 8) else {
            return .failure(Problem(message: "header checksum field is not a number"))
        }
        var unsigned: Int64 = 0
        var signed: Int64 = 0
        for i in 0..<blockSize {
            let byte = (148..<156).contains(i) ? UInt8(ascii: " ") : block[i]
            unsigned += Int64(byte)
            signed += Int64(Int8(bitPattern: byte))
        }
        guard stored == unsigned || stored == signed else {
            return .failure(Problem(message: "header checksum mismatch (not a tar header)"))
        }
        guard let size = number(block, 124, 12), size >= 0 else {
            return .failure(Problem(message: "header size field is invalid"))
        }
        guard let mode = number(block, 100, 8) else {
            return .failure(Problem(message: "header mode field is invalid"))
        }
        var name = field(block, 0, 100)
        let magic = Array(block[257..<263])
        // POSIX ustar ("ustar\0") splits long names into prefix/name; old GNU ("ustar  \0") uses that space otherwise.
        if magic == Array("ustar\0".utf8) {
            let prefix = field(block, 345, 155)
            if !prefix.isEmpty { name = prefix + [UInt8(ascii: "/")] + name }
        }
        return .success(
            TarHeader(name: name, typeflag: block[156], size: size, mode: mode, linkName: field(block, 157, 100)))
    }

    /// A NUL-terminated (or full-width) text field.
    static func field(_ block: UnsafeRawBufferPointer, _ at: Int, _ width: Int) -> [UInt8] {
        let slice = block[at..<(at + width)]
        return Array(slice.prefix { $0 != 0 })
    }

    /// An octal field (spaces and NULs around the digits) or a GNU base-256 one (high bit set); nil if malformed,
    /// negative or over 2^62.
    static func number(_ block: UnsafeRawBufferPointer, _ at: Int, _ width: Int) -> Int64? {
        let bytes = block[at..<(at + width)]
        if let first = bytes.first, first & 0x80 != 0 {
            guard first == 0x80 else { return nil }
            var value: Int64 = 0
            for byte in bytes.dropFirst() {
                guard value < 1 << 54 else { return nil }
                value = value << 8 | Int64(byte)
            }
            return value
        }
        var value: Int64 = 0
        var digits = 0
        var ended = false
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "7"):
                guard !ended, value < 1 << 59 else { return nil }
                value = value << 3 | Int64(byte - UInt8(ascii: "0"))
                digits += 1
            case UInt8(ascii: " "), 0:
                if digits > 0 { ended = true }
            default:
                return nil
            }
        }
        return value
    }
}
