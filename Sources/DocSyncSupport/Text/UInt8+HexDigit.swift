extension UInt8 {
    /// This byte's value as a hex digit (`0`–`9`, `a`–`f`, `A`–`F`); nil for any other byte. The one reader of hex
    /// digits: `%XX` escapes (entry URLs, served paths), SHA-256 digests in hex and feeds' checksums.
    @inlinable
    package var hexDigitValue: UInt8? {
        switch self {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): self - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): self - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): self - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
