import HTTPTypes

/// The `Date` header field (IMF-fixdate, RFC 9110 §5.6.7), formatted at most once per second and shared by every
/// answer of that second.
final class DateHeader: Sendable {
    private let latest = PerSecond { HTTPField(name: .date, value: DateHeader.format($0)) }

    /// The field for now.
    func field() -> HTTPField { latest.now() }

    /// `Sun, 06 Nov 1994 08:49:37 GMT` for a time in seconds since the epoch.
    static func format(_ seconds: Int) -> String {
        let time = UTCTime(seconds)
        return "\(time.weekday), \(time.day) \(time.month) \(time.year) \(time.clock) GMT"
    }
}
