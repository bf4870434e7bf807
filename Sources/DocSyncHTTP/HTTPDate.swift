import Foundation

/// HTTP dates (RFC 9110 §5.6.7). `parse` reads only IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), the one form a
/// sender may generate: a validator in an obsolete form is not trusted as strong. `date` also reads the obsolete
/// RFC 850 and asctime forms that caches must accept (`Expires`, `Date`).
package enum HTTPDate {
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Seconds since the Unix epoch, or nil when `value` is not an IMF-fixdate.
    package static func parse(_ value: String) -> Int64? {
        let parts = value.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 6, parts[0].count == 4, parts[0].hasSuffix(","), parts[5] == "GMT",
            parts[1].count == 2, let day = Int64(parts[1]), (1...31).contains(day),
            let monthIndex = months.firstIndex(where: { $0 == parts[2] }),
            parts[3].count == 4, let year = Int64(parts[3])
        else { return nil }
        let clock = parts[4].split(separator: ":", omittingEmptySubsequences: false)
        guard clock.count == 3, clock.allSatisfy({ $0.count == 2 }),
            let hour = Int64(clock[0]), let minute = Int64(clock[1]), let second = Int64(clock[2]),
            hour < 24, minute < 60, second < 61
        else { return nil }
        return daysFromCivil(year: year, month: Int64(monthIndex) + 1, day: day) * 86_400 + hour * 3600 + minute * 60
            + second
    }

    /// Days since 1970-01-01 in the proleptic Gregorian calendar (Howard Hinnant's algorithm).
    private static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Any of the three HTTP-date forms, as a `Date`; nil otherwise.
    package static func date(_ value: String) -> Date? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if let seconds = parse(trimmed) { return Date(timeIntervalSince1970: TimeInterval(seconds)) }
        for format in ["EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: trimmed) { return date }
        }
        return nil
    }

    /// IMF-fixdate of `date`.
    package static func format(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }
}
