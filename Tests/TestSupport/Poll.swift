import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A condition a test waited for did not hold by its deadline: what was awaited, and for how long.
package struct WaitTimedOut: Error, CustomStringConvertible {
    package let what: String
    package let seconds: Double
    package var description: String { "timed out after \(seconds) s waiting for \(what)" }
}

/// Waits for conditions with a deadline that fails loudly: a wait that times out throws `WaitTimedOut` naming what
/// it waited for, so a test never goes on as if the condition held.
package enum Poll {
    /// Checks `condition` every `interval` seconds until it holds; throws `WaitTimedOut` after `timeout` seconds.
    package static func until(
        _ what: @autoclosure () -> String, timeout: Double = 30, every interval: Double = 0.02,
        _ condition: () throws -> Bool
    ) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while try !condition() {
            guard Date() < deadline else { throw WaitTimedOut(what: what(), seconds: timeout) }
            usleep(useconds_t(interval * 1_000_000))
        }
    }

    /// `until` for async tests: sleeps with `Task.sleep`, so the cooperative pool is not blocked.
    package static func until(
        _ what: @autoclosure () -> String, timeout: Double = 30, every interval: Double = 0.01,
        _ condition: () async throws -> Bool
    ) async throws {
        let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
        while try await !condition() {
            guard ContinuousClock.now < deadline else { throw WaitTimedOut(what: what(), seconds: timeout) }
            try await Task.sleep(for: .milliseconds(Int(interval * 1000)))
        }
    }
}
