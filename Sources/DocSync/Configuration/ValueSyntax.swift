import Foundation

/// Pure parsers for the human-friendly values of the configuration: durations, byte sizes, paths.
///
/// The one place numeric configuration values are bounded: a duration is at most ``maximumDurationSeconds`` (ten
/// years) and a byte size at most ``maximumByteSize`` (1 PiB), so no later sum, product or conversion of them can
/// overflow. Larger values, negative values and numbers too large for 64 bits are malformed (nil), never a trap.
package enum ValueSyntax {
    /// The longest duration any setting accepts: ten years, in seconds.
    package static let maximumDurationSeconds: Int64 = 3650 * 86400
    /// The largest byte size any setting accepts: 1 PiB.
    package static let maximumByteSize: Int64 = 1 << 50

    /// `seconds` as a duration when it is within 0...``maximumDurationSeconds``.
    package static func duration(seconds: Int64) -> Duration? {
        (0...maximumDurationSeconds).contains(seconds) ? .seconds(seconds) : nil
    }

    /// `bytes` when it is within 0...``maximumByteSize``.
    package static func byteSize(bytes: Int64) -> Int64? { (0...maximumByteSize).contains(bytes) ? bytes : nil }

    /// `90s`, `10m`, `6h`, `1h30m`, `2d`, or a bare number of seconds, at most ten years. Nil when malformed.
    package static func duration(_ text: String) -> Duration? {
        let s = text.trimmingCharacters(in: .whitespaces).lowercased()
        if let seconds = Int64(s) { return duration(seconds: seconds) }
        var total: Int64 = 0
        var number = ""
        var sawUnit = false
        for c in s {
            if c.isASCII, c.isNumber {
                number.append(c)
                continue
            }
            guard let value = Int64(number) else { return nil }
            let unit: Int64
            switch c {
            case "s": unit = 1
            case "m": unit = 60
            case "h": unit = 3600
            case "d": unit = 86400
            default: return nil
            }
            let (product, overflow) = value.multipliedReportingOverflow(by: unit)
            guard !overflow, product <= maximumDurationSeconds - total else { return nil }
            total += product
            number = ""
            sawUnit = true
        }
        guard number.isEmpty, sawUnit else { return nil }
        return duration(seconds: total)
    }

    /// `0`, `512`, `500K`/`500KB`/`500KiB`, `5M`, `1G` (K = 1024), at most 1 PiB. Nil when malformed.
    package static func byteSize(_ text: String) -> Int64? {
        let s = text.trimmingCharacters(in: .whitespaces).uppercased()
        let digits = s.prefix { $0.isASCII && $0.isNumber }
        guard let value = Int64(digits) else { return nil }
        let multiplier: Int64
        switch s.dropFirst(digits.count) {
        case "", "B": multiplier = 1
        case "K", "KB", "KIB": multiplier = 1 << 10
        case "M", "MB", "MIB": multiplier = 1 << 20
        case "G", "GB", "GIB": multiplier = 1 << 30
        default: return nil
        }
        let (product, overflow) = value.multipliedReportingOverflow(by: multiplier)
        return overflow ? nil : byteSize(bytes: product)
    }

    /// Expands a leading `~` or `~/` and `$VAR` / `${VAR}`. Throws the variable's name when it is not set.
    package static func expandPath(_ text: String, environment: [String: String]) throws(UnsetVariable) -> String {
        try expandPath(text) { environment[$0] }
    }

    /// ``expandPath(_:environment:)`` with each variable's value from `variable` (nil: not set).
    package static func expandPath(_ text: String, variable: (String) -> String?) throws(UnsetVariable) -> String {
        var s = Substring(text)
        var out = ""
        if s == "~" || s.hasPrefix("~/") {
            guard let home = variable("HOME") else { throw UnsetVariable(name: "HOME") }
            out = home
            s = s.dropFirst()
        }
        while let dollar = s.firstIndex(of: "$") {
            out += s[..<dollar]
            var rest = s[s.index(after: dollar)...]
            let name: Substring
            if rest.first == "{", let close = rest.firstIndex(of: "}") {
                name = rest[rest.index(after: rest.startIndex)..<close]
                rest = rest[rest.index(after: close)...]
            } else {
                name = rest.prefix { $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }
                rest = rest.dropFirst(name.count)
            }
            guard !name.isEmpty else {
                out += "$"
                s = rest
                continue
            }
            guard let value = variable(String(name)) else { throw UnsetVariable(name: String(name)) }
            out += value
            s = rest
        }
        return out + s
    }

    package struct UnsetVariable: Error, Equatable {
        package let name: String
    }
}
