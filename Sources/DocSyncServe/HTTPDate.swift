import HTTPTypes
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The `Date` header field (IMF-fixdate, RFC 9110 §5.6.7), formatted at most once per second and shared by every
/// answer of that second.
final class HTTPDate: Sendable {
    private let latest = Mutex<(second: Int, field: HTTPField)?>(nil)

    /// The field for now.
    func field() -> HTTPField {
        let now = time(nil)
        return latest.withLock { latest in
            if let latest, latest.second == now { return latest.field }
            let field = HTTPField(name: .date, value: Self.format(now))
            latest = (now, field)
            return field
        }
    }

    /// `Sun, 06 Nov 1994 08:49:37 GMT` for a time in seconds since the epoch.
    static func format(_ seconds: Int) -> String {
        var time = seconds
        var parts = tm()
        gmtime_r(&time, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }
}
