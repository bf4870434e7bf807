import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension Process {
    /// Waits for the child with `waitpid` and returns its exit status (128 + signal when killed).
    ///
    /// Foundation's `waitUntilExit()` on Linux relies on a SIGCHLD monitor that was seen to miss an exit when many
    /// tests spawn processes at once, leaving a zombie and a hung test; reaping the pid directly cannot miss it.
    /// If Foundation reaped it first, its recorded status is used.
    package func waitForExit() -> Int32 {
        var status: Int32 = 0
        while true {
            let pid = waitpid(processIdentifier, &status, 0)
            if pid == processIdentifier { break }
            if pid < 0 && errno == EINTR { continue }
            waitUntilExit()  // ECHILD: Foundation reaped it and knows the status
            return terminationReason == .uncaughtSignal ? 128 + terminationStatus : terminationStatus
        }
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    }
}
