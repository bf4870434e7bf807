import Foundation

/// Pure parsers for the human-friendly values of the configuration: durations, byte sizes, paths.
package enum ValueSyntax {
    /// `90s`, `10m`, `6h`, `1h30m`, `2d`, or a bare number of seconds. Nil when malformed.
    package static func duration(_ text: String) -> Duration? {
        let s = text.trimmingCharacters(in: .whitespaces).lowercased()
        if let seconds = Int(s), seconds >= 0 { return .seconds(seconds) }
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
            guard !overflow else { return nil }
            total += product
            number = ""
            sawUnit = true
        }
        guard number.isEmpty, sawUnit else { return nil }
        return .seconds(total)
    }

    /// `0`, `512`, `500K`/`500KB`/`500KiB`, `5M`, `1G` (K = 1024). Nil when malformed.
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
        return overflow ? nil : product
    }

    /// Expands a leading `~` or `~/` and `$VAR` / `${VAR}`. Throws the variable's name when it is not set.
    package static func expandPath(_ text: String, environment: [String: String]) throws(UnsetVariable) -> String {
        var s = Substring(text)
        var out = ""
        if s == "~" || s.hasPrefix("~/") {
            guard let home = environment["HOME"] else { throw UnsetVariable(name: "HOME") }
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
            guard let value = environment[String(name)] else { throw UnsetVariable(name: String(name)) }
            out += value
            s = rest
        }
        return out + s
    }

    package struct UnsetVariable: Error, Equatable {
        package let name: String
    }
}
