/// Durations for people, rounded to what matters: `0.4 s`, `9.5 s`, `42 s`, `12 min`, `3.2 h`, `2.1 d`. Pure.
package enum DurationText {
    package static func text(seconds: Double) -> String {
        guard seconds.isFinite else { return "?" }
        let s = max(0, seconds)
        if s < 10 { return "\(one(s)) s" }
        if s < 60 { return "\(Int(s.rounded())) s" }
        if s < 3600 { return "\(Int((s / 60).rounded())) min" }
        if s < 86400 { return "\(one(s / 3600)) h" }
        return "\(one(s / 86400)) d"
    }

    package static func text(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        return text(seconds: Double(seconds) + Double(attoseconds) / 1e18)
    }

    /// One decimal, without a trailing `.0` (`9.5`, `3`).
    private static func one(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return tenths % 10 == 0 ? "\(tenths / 10)" : "\(tenths / 10).\(tenths % 10)"
    }
}
