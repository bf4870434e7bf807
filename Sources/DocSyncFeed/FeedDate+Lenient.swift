import Foundation

extension FeedDate {
    /// Dates as real feeds write them: RFC 3339 first, then the sloppy forms seen in the wild — single-digit fields
    /// (`2006-01-17T12:35:9+01:00`), missing seconds, lowercase `t` / `z`, a space instead of `T`, `+0100` or
    /// `+01` offsets, no zone at all (read as UTC) — and RFC 822 / RFC 1123 dates (`Thu, 06 Apr 2017 14:56:28
    /// -0400`, `GMT`, `EST`…). Nil when still unreadable. Pure.
    package static func parseLenient(_ text: String) -> Date? {
        if let strict = parse(text) { return strict }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return iso8601Like(trimmed) ?? rfc822(trimmed)
    }

    /// `Y-M-D[T| ]h:m[:s[.f]][zone]` with one- or two-digit fields.
    static func iso8601Like(_ text: String) -> Date? {
        var scanner = DateScanner(text)
        guard let year = scanner.number(digits: 4...4), scanner.skip("-"), let month = scanner.number(digits: 1...2),
            scanner.skip("-"), let day = scanner.number(digits: 1...2)
        else { return nil }
        guard scanner.skip("T") || scanner.skip("t") || scanner.skip(" ") else { return nil }
        guard let hour = scanner.number(digits: 1...2), scanner.skip(":"), let minute = scanner.number(digits: 1...2)
        else { return nil }
        var second = 0
        var fraction = 0.0
        if scanner.skip(":") {
            guard let s = scanner.number(digits: 1...2) else { return nil }
            second = s
            if scanner.skip(".") || scanner.skip(",") {
                guard let digits = scanner.digits(), !digits.isEmpty else { return nil }
                fraction = Double("0." + digits) ?? 0
            }
        }
        _ = scanner.skip(" ")
        guard let offset = scanner.zone(), scanner.isAtEnd else { return nil }
        return make(year, month, day, hour, minute, second, offset: offset, fraction: fraction)
    }

    /// `[Day,] D Mon YYYY h:mm[:ss] zone` (RFC 822 §5 with four- or two-digit years, RFC 1123).
    static func rfc822(_ text: String) -> Date? {
        var scanner = DateScanner(text)
        if scanner.letters() != nil {
            guard scanner.skip(",") else { return nil }
            _ = scanner.skip(" ")
        }
        guard let day = scanner.number(digits: 1...2), scanner.skip(" "), let name = scanner.letters(),
            let month = months.firstIndex(of: name.lowercased().prefix(3).description).map({ $0 + 1 }),
            scanner.skip(" "), var year = scanner.number(digits: 2...4), scanner.skip(" "),
            let hour = scanner.number(digits: 1...2), scanner.skip(":"), let minute = scanner.number(digits: 2...2)
        else { return nil }
        if year < 100 { year += year < 50 ? 2000 : 1900 }
        var second = 0
        if scanner.skip(":") {
            guard let s = scanner.number(digits: 2...2) else { return nil }
            second = s
        }
        _ = scanner.skip(" ")
        guard let offset = scanner.zone(), scanner.isAtEnd else { return nil }
        return make(year, month, day, hour, minute, second, offset: offset, fraction: 0)
    }

    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// Builds the date through the strict parser, so every range rule (month, day of month, hour…) stays one.
    private static func make(
        _ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int, _ second: Int, offset: Int,
        fraction: Double
    ) -> Date? {
        func pad(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let sign = offset < 0 ? "-" : "+"
        let zone = "\(sign)\(pad(abs(offset) / 3600)):\(pad(abs(offset) / 60 % 60))"
        let text = "\(year)-\(pad(month))-\(pad(day))T\(pad(hour)):\(pad(minute)):\(pad(second))\(zone)"
        return parse(text).map { $0.addingTimeInterval(fraction) }
    }
}

/// A cursor over the characters of a date.
private struct DateScanner {
    private let characters: [Character]
    private var index = 0

    init(_ text: String) { characters = Array(text) }

    var isAtEnd: Bool { index == characters.count }

    mutating func skip(_ literal: Character) -> Bool {
        guard index < characters.count, characters[index] == literal else { return false }
        index += 1
        return true
    }

    mutating func digits() -> String? {
        let start = index
        while index < characters.count, characters[index].isASCII, characters[index].isNumber { index += 1 }
        return String(characters[start..<index])
    }

    mutating func number(digits allowed: ClosedRange<Int>) -> Int? {
        let start = index
        guard let text = digits(), allowed.contains(text.count) else {
            index = start
            return nil
        }
        return Int(text)
    }

    mutating func letters() -> String? {
        let start = index
        while index < characters.count, characters[index].isASCII, characters[index].isLetter { index += 1 }
        return index > start ? String(characters[start..<index]) : nil
    }

    /// Seconds east of UTC: `Z`, `z`, `UT`, `UTC`, `GMT`, US zones, `±hh:mm`, `±hhmm`, `±hh`; none at all is UTC.
    mutating func zone() -> Int? {
        if isAtEnd { return 0 }
        if skip("+") || characters[index] == "-" && skip("-") {
            let sign = characters[index - 1] == "-" ? -1 : 1
            guard let hours = number(digits: 1...4) else { return nil }
            var (h, m) = hours > 99 ? (hours / 100, hours % 100) : (hours, 0)
            if hours <= 99, skip(":") {
                guard let minutes = number(digits: 2...2) else { return nil }
                m = minutes
            }
            guard h < 24, m < 60 else { return nil }
            h = h * 3600 + m * 60
            return sign * h
        }
        guard let name = letters()?.uppercased() else { return nil }
        let zones = ["Z": 0, "UT": 0, "UTC": 0, "GMT": 0, "EST": -5, "EDT": -4, "CST": -6, "CDT": -5, "MST": -7,
                     "MDT": -6, "PST": -8, "PDT": -7]
        return zones[name].map { $0 * 3600 }
    }
}
