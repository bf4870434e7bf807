import Foundation

/// RFC 3339 timestamps (`2017-04-06T14:56:28-04:00`, `2024-01-02T03:04:05.5Z`): parsing to a UTC `Date` and
/// formatting as `YYYY-MM-DDTHH:MM:SSZ`. Pure and calendar-free (proleptic Gregorian arithmetic).
package enum FeedDate {
    /// The instant `text` names, or nil if it is not an RFC 3339 `date-time` (surrounding whitespace allowed).
    package static func parse(_ text: String) -> Date? {
        let b = Array(text.utf8.drop(while: isSpace).reversed().drop(while: isSpace).reversed())
        // date-fullyear "-" date-month "-" date-mday "T" time-hour ":" time-minute ":" time-second
        guard b.count >= 20, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"),
            b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: "t"),
            b[13] == UInt8(ascii: ":"), b[16] == UInt8(ascii: ":"),
            let year = number(b, 0, 4), let month = number(b, 5, 2), let day = number(b, 8, 2),
            let hour = number(b, 11, 2), let minute = number(b, 14, 2), let second = number(b, 17, 2),
            (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
            hour < 24, minute < 60, second <= 60
        else { return nil }
        var index = 19
        var fraction = 0.0
        if b[index] == UInt8(ascii: ".") {
            var scale = 0.1
            index += 1
            let digitsStart = index
            while index < b.count, let digit = digit(b[index]) {
                fraction += Double(digit) * scale
                scale /= 10
                index += 1
            }
            guard index > digitsStart else { return nil }
        }
        guard index < b.count else { return nil }
        var offsetSeconds = 0
        switch b[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            guard index + 1 == b.count else { return nil }
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard index + 6 == b.count, b[index + 3] == UInt8(ascii: ":"),
                let offsetHour = number(b, index + 1, 2), let offsetMinute = number(b, index + 4, 2),
                offsetHour < 24, offsetMinute < 60
            else { return nil }
            offsetSeconds = (offsetHour * 60 + offsetMinute) * 60 * (b[index] == UInt8(ascii: "-") ? -1 : 1)
        default: return nil
        }
        // A leap second (:60) is read as the last second of its minute: Date has no place for it.
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + min(second, 59) - offsetSeconds
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    /// `YYYY-MM-DDTHH:MM:SSZ` in UTC, fractions of a second dropped.
    package static func format(_ date: Date) -> String {
        let total = Int(date.timeIntervalSince1970.rounded(.down))
        let days = total >= 0 ? total / 86_400 : (total - 86_399) / 86_400
        let secondOfDay = total - days * 86_400
        let (year, month, day) = civilFromDays(days)
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(secondOfDay / 3600, 2)):"
            + "\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2))Z"
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private static func digit(_ byte: UInt8) -> Int? {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) ? Int(byte - UInt8(ascii: "0")) : nil
    }

    private static func number(_ bytes: [UInt8], _ start: Int, _ count: Int) -> Int? {
        var value = 0
        for index in start..<start + count {
            guard let digit = digit(bytes[index]) else { return nil }
            value = value * 10 + digit
        }
        return value
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 (Howard Hinnant's `days_from_civil`).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func civilFromDays(_ days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
