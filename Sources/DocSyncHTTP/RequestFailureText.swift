/// How a failed request is told to people, the one way `DownloadError` and a sync's `SyncFailure` both say it:
/// `url: HTTP status: message`, leaving out what is absent (no URL; no status, or a message that starts with it).
package enum RequestFailureText {
    /// `url: HTTP status: message`, e.g. `https://example.org/A.tgz: HTTP 404: not found`.
    package static func line(url: String?, status: Int?, message: String) -> String {
        var text = ""
        if let url { text += "\(url): " }
        if let status, status > 0, !message.hasPrefix("HTTP \(status)") { text += "HTTP \(status): " }
        return text + message
    }
}
