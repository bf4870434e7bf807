/// A `Content-Range` field value (RFC 9110 §14.4), parsed strictly: unit `bytes`, then either
/// `first-last/complete`, `first-last/*`, or `*/complete`. Anything else is rejected — no leniency for
/// `100-199/200` without a unit, `bytes=`, signs, spaces or overflowing numbers.
package struct ContentRange: Sendable, Equatable {
    package enum Form: Sendable, Equatable {
        /// `bytes first-last/complete`; `complete` is nil for `*`.
        case satisfied(first: Int64, last: Int64, complete: Int64?)
        /// `bytes */complete` (the form a 416 carries).
        case unsatisfied(complete: Int64)
    }

    package var form: Form

    package init(_ form: Form) { self.form = form }

    /// Parses `value`; nil when it is not exactly one valid byte range.
    package init?(parsing value: String) {
        var bytes = Array(value.utf8)[...]
        guard bytes.count >= 7, Self.isBytesUnit(bytes.prefix(5)), bytes[bytes.startIndex + 5] == 0x20 else {
            return nil
        }
        bytes = bytes.dropFirst(6)
        if bytes.first == UInt8(ascii: "*") {
            bytes = bytes.dropFirst()
            guard bytes.first == UInt8(ascii: "/"), let complete = Self.number(bytes.dropFirst()) else { return nil }
            form = .unsatisfied(complete: complete)
            return
        }
        guard let dash = bytes.firstIndex(of: UInt8(ascii: "-")),
            let slash = bytes.firstIndex(of: UInt8(ascii: "/")), dash < slash,
            let first = Self.number(bytes[..<dash]),
            let last = Self.number(bytes[(dash + 1)..<slash])
        else { return nil }
        let tail = bytes[(slash + 1)...]
        let complete: Int64?
        if tail.elementsEqual([UInt8(ascii: "*")]) {
            complete = nil
        } else if let n = Self.number(tail) {
            complete = n
        } else {
            return nil
        }
        guard last >= first else { return nil }  // RFC 9110: invalid, MUST NOT be recombined
        if let complete, complete <= last { return nil }
        form = .satisfied(first: first, last: last, complete: complete)
    }

    /// The number of bytes a satisfied range spans.
    package var span: Int64? {
        if case .satisfied(let first, let last, _) = form { return last - first + 1 }
        return nil
    }

    private static func isBytesUnit(_ unit: ArraySlice<UInt8>) -> Bool {
        // Range units are case-insensitive (RFC 9110 §14.1).
        unit.map { $0 | 0x20 }.elementsEqual("bytes".utf8)
    }

    /// 1 to 18 ASCII digits (so the value always fits an Int64).
    private static func number(_ digits: ArraySlice<UInt8>) -> Int64? {
        guard (1...18).contains(digits.count) else { return nil }
        var value: Int64 = 0
        for d in digits {
            guard d >= 0x30, d <= 0x39 else { return nil }
            value = value * 10 + Int64(d - 0x30)
        }
        return value
    }
}
