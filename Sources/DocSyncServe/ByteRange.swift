/// One `Range: bytes=…` request resolved against a length (RFC 9110 §14): a pure function.
package enum ByteRange: Equatable, Sendable {
    /// No usable range (absent, not `bytes=`, several ranges, malformed): send the whole representation.
    case whole
    /// Send bytes `range` of the file (`206`).
    case part(Range<Int>)
    /// No range overlaps the file (`416`).
    case unsatisfiable

    /// The answer for header value `header` (nil when absent) and a file of `length` bytes.
    package static func resolve(_ header: String?, length: Int) -> ByteRange {
        guard let header, header.hasPrefix("bytes=") else { return .whole }
        let spec = header.dropFirst("bytes=".count).trimmingSpaces
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return .whole }
        let first = spec[..<dash].trimmingSpaces
        let last = spec[spec.index(after: dash)...].trimmingSpaces
        guard first.count <= 18, last.count <= 18 else { return .whole }
        if first.isEmpty {
            guard let suffix = Int(last), suffix >= 0 else { return .whole }
            guard suffix > 0, length > 0 else { return .unsatisfiable }
            return .part(max(0, length - suffix)..<length)
        }
        guard let start = Int(first), start >= 0 else { return .whole }
        let end: Int
        if last.isEmpty {
            end = length - 1
        } else {
            guard let value = Int(last), value >= start else { return .whole }
            end = min(value, length - 1)
        }
        guard start < length else { return .unsatisfiable }
        return .part(start..<(end + 1))
    }
}

extension Substring {
    fileprivate var trimmingSpaces: Substring {
        var text = self
        while text.first == " " { text = text.dropFirst() }
        while text.last == " " { text = text.dropLast() }
        return text
    }
}
