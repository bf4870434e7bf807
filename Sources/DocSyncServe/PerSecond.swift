import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A value made from the current second (a `Date` field, the access log's time), made at most once per second and
/// shared by every caller of that second.
final class PerSecond<Value: Sendable>: Sendable {
    private let latest = Mutex<(second: Int, value: Value)?>(nil)
    private let make: @Sendable (Int) -> Value

    /// `make` turns seconds since the epoch into the value.
    init(_ make: @escaping @Sendable (Int) -> Value) { self.make = make }

    /// The value for now.
    func now() -> Value {
        let now = time(nil)
        return latest.withLock { latest in
            if let latest, latest.second == now { return latest.value }
            let value = make(now)
            latest = (now, value)
            return value
        }
    }
}

/// A time's UTC calendar fields, as HTTP dates and access logs spell them.
struct UTCTime {
    private let parts: tm

    init(_ seconds: Int) {
        var time = seconds
        var parts = tm()
        gmtime_r(&time, &parts)
        self.parts = parts
    }

    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `Sun`.
    var weekday: String { Self.weekdays[Int(parts.tm_wday)] }
    /// `06`.
    var day: String { Self.two(parts.tm_mday) }
    /// `Nov`.
    var month: String { Self.months[Int(parts.tm_mon)] }
    /// `1994`.
    var year: String { String(parts.tm_year + 1900) }
    /// `08:49:37`.
    var clock: String { "\(Self.two(parts.tm_hour)):\(Self.two(parts.tm_min)):\(Self.two(parts.tm_sec))" }

    private static func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
