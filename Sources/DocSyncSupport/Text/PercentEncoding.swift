/// `%XX` percent-encoding (RFC 3986 §2.1, uppercase hex digits): the one writer behind every encoder in docsync
/// (entry URLs, fragments, URI references, manifest paths, served path segments). Which bytes stay literal is the
/// caller's rule; this type only writes the escapes. (Decoders read the digits with `UInt8.hexDigitValue`.)
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
