extension String {
    /// The index just past the first `://`: a byte scan. (`contains("://")` / `range(of:)` resolve to Foundation's
    /// `StringProtocol` methods wherever Foundation is imported, which run CFString's search and map its Unicode
    /// tables: resident memory on every download's path for a three-byte search.)
    package var indexAfterSchemeSeparator: String.Index? {
        let bytes = utf8
        var index = bytes.startIndex
        while index != bytes.endIndex {
            if bytes[index] == UInt8(ascii: ":"), bytes[bytes.index(after: index)...].starts(with: "//".utf8) {
                return bytes.index(index, offsetBy: 3)
            }
            bytes.formIndex(after: &index)
        }
        return nil
    }
}
