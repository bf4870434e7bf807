/// `%XX` percent-encoding (RFC 3986 §2.1, uppercase hex digits): the one writer behind every encoder in docsync
/// (entry URLs, fragments, URI references, manifest paths, served path segments), and the one reader of an escape's
/// digits (``hexValue(_:)``). Which bytes stay literal is the caller's rule; this type only writes the escapes.
package enum PercentEncoding {
    /// The uppercase hex digits RFC 3986 recommends for escapes.
    @usableFromInline static let digits: StaticString = "0123456789ABCDEF"

    /// Writes `%XX` for `byte` at `out`, `out + 1` and `out + 2` (for writers into a preallocated buffer).
    @inlinable
    package static func write(_ byte: UInt8, to out: UnsafeMutablePointer<UInt8>) {
        let hex = digits.utf8Start
        out[0] = UInt8(ascii: "%")
        out[1] = hex[Int(byte >> 4)]
        out[2] = hex[Int(byte & 15)]
    }

    /// Appends `%XX` for `byte` to `bytes`.
    @inlinable
    package static func append(_ byte: UInt8, to bytes: inout [UInt8]) {
        let hex = digits.utf8Start
        bytes.append(UInt8(ascii: "%"))
        bytes.append(hex[Int(byte >> 4)])
        bytes.append(hex[Int(byte & 15)])
    }

    /// The value of the hex digit `byte` (`0`–`9`, `a`–`f`, `A`–`F`); nil for any other byte. The one reader of a
    /// `%XX` escape's digits (the decoders differ in what they do with a malformed escape, not in this).
    @inlinable
    package static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// `bytes` as text, every byte for which `keep` is false written `%XX` (the kept bytes must be ASCII or whole
    /// UTF-8 sequences: they are decoded as UTF-8).
    @inlinable
    package static func encoded(_ bytes: some Sequence<UInt8>, keeping keep: (UInt8) -> Bool) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.underestimatedCount)
        for byte in bytes {
            if keep(byte) { out.append(byte) } else { append(byte, to: &out) }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
