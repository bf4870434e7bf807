/// A post-install hook that did not succeed: the docset is installed, but the run counts it as failed.
struct HookFailure: Sendable, Equatable {
    /// The docset the hook ran for.
    var name: String
    /// The hook's exit status, when it exited on its own.
    var exitStatus: Int32?
    /// The signal that ended it, when one did (SIGTERM / SIGKILL after a timeout).
    var signal: Int32?
    /// It ran past `post_install_timeout` and its process group was stopped.
    var timedOut: Bool
    /// It could not be started (the reason), e.g. `/bin/sh` missing.
    var startError: String?
    /// The last lines it wrote to standard error (at most 10), control characters escaped.
    var standardError: [String]

    init(
        name: String, exitStatus: Int32? = nil, signal: Int32? = nil, timedOut: Bool = false,
        startError: String? = nil, standardError: [String] = []
    ) {
        self.name = name
        self.exitStatus = exitStatus
        self.signal = signal
        self.timedOut = timedOut
        self.startError = startError
        self.standardError = standardError
    }

    /// One line for people: `post_install exited with status 7: last stderr line`.
    var reason: String {
        let what: String
        if let startError {
            what = "post_install could not start: \(startError)"
        } else if timedOut {
            what = "post_install ran past post_install_timeout and was stopped (its whole process group)"
        } else if let exitStatus {
            what = "post_install exited with status \(exitStatus)"
        } else {
            what = "post_install was killed by signal \(signal ?? 0)"
        }
        return standardError.isEmpty ? what : "\(what): \(standardError.joined(separator: " | "))"
    }

    /// The failure value the `hook-failed` event carries: code `hook`, ``reason`` as its message, and the exit
    /// status, signal, timeout and standard error lines as their own members.
    var syncFailure: SyncFailure {
        var failure = SyncFailure(code: .hook, message: reason)
        failure.exitStatus = exitStatus
        failure.signal = signal
        failure.timedOut = timedOut
        failure.stderrTail = standardError
        return failure
    }

    /// The last `count` non-empty lines of `bytes`, each with control characters shown as `\u{XX}`.
    static func lastLines(_ bytes: [UInt8], count: Int = 10) -> [String] {
        let text = String(decoding: bytes, as: UTF8.self)
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
        return lines.suffix(count).map(escapingControlCharacters)
    }

    static func escapingControlCharacters(_ line: String) -> String {
        var out = ""
        for scalar in line.unicodeScalars {
            if scalar.properties.generalCategory == .control {
                out += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}

extension Substring {
    fileprivate func trimmingWhitespace() -> String {
        String(drop { $0 == " " || $0 == "\t" || $0 == "\r" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
