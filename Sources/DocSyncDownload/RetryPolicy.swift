#if canImport(Glibc)
    import Glibc
#endif

/// Retry limits and backoff (checklist H61–H63).
package struct RetryPolicy: Sendable, Equatable {
    /// Failed attempts in a row (without progress) before giving up; progress resets the count.
    package var maxAttempts: Int = 8
    /// Seconds before the first retry; doubles each time, with up to +41% jitter.
    package var baseDelay: Double = 1
    package var maxDelay: Double = 30
    /// The longest `Retry-After` honoured, in seconds; longer ones are capped.
    package var maxRetryAfter: Double = 300
    /// Restarts from byte 0 (the server sent another representation) before giving up.
    package var maxRestarts: Int = 5
    /// Times an expired redirect target is resolved again from the original URL, per mirror, without progress.
    package var maxReResolves: Int = 3

    package init() {}

    /// Delay before retry number `attempt` (1-based): `base × 2^(attempt − 1 + jitter)`, jitter in [0, 0.5),
    /// capped at `maxDelay`, and never shorter than the server's `Retry-After` (itself capped).
    package func delay(attempt: Int, retryAfter: Int64? = nil, jitter: Double) -> Double {
        let exponent = Double(max(attempt, 1) - 1) + min(max(jitter, 0), 0.5)
        let backoff = min(maxDelay, baseDelay * pow(2, exponent))
        guard let retryAfter else { return backoff }
        return max(backoff, min(Double(retryAfter), maxRetryAfter))
    }
}
