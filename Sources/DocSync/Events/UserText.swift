import Foundation

/// The one place an error becomes text for people (CLI messages, `failed` / `feed-failed` reasons, status): no
/// Foundation error dump (`Error Domain=NSCocoaErrorDomain Code=642 …` becomes `PATH: Read-only file system`),
/// and no repeated segment (`URL: HTTP 404: HTTP 404` becomes `URL: HTTP 404`).
public enum UserText {
    /// `error` as one line for people.
    public static func describe(_ error: any Error) -> String {
        let text: String
        if let foundation = foundationText(error) {
            text = foundation
        } else {
            text = String(describing: error)
        }
        return removingRepeatedSegments(text)
    }

    /// Drops a `: `-separated segment equal to the one before it.
    public static func removingRepeatedSegments(_ text: String) -> String {
        var kept: [Substring] = []
        for segment in text.split(separator: ": ", omittingEmptySubsequences: false) {
            if let last = kept.last, last == segment { continue }
            kept.append(segment)
        }
        return kept.joined(separator: ": ")
    }

    /// `PATH: strerror` for Foundation's file errors; nil for errors of docsync's own types.
    static func foundationText(_ error: any Error) -> String? {
        guard type(of: error) is NSError.Type || error is CocoaError || error is POSIXError else { return nil }
        let ns = error as NSError
        let path = (ns.userInfo[NSFilePathErrorKey] as? String) ?? (ns.userInfo[NSURLErrorKey] as? URL)?.path
        let code = posixCode(ns)
        var reason: String
        if let code {
            reason = String(cString: strerror(code))
        } else {
            reason = ns.localizedFailureReason ?? ns.localizedDescription
            if reason.hasPrefix("The operation could not be completed") || reason.contains("Error Domain=") {
                reason = "\(ns.domain == NSCocoaErrorDomain ? "file error" : ns.domain) \(ns.code)"
            }
        }
        return path.map { "\($0): \(reason)" } ?? reason
    }

    /// The errno behind a Foundation error: its underlying POSIX error, or the one a Cocoa file code stands for.
    static func posixCode(_ error: NSError) -> Int32? {
        if error.domain == NSPOSIXErrorDomain { return Int32(error.code) }
        if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError, let code = posixCode(underlying) {
            return code
        }
        guard error.domain == NSCocoaErrorDomain else { return nil }
        switch CocoaError.Code(rawValue: error.code) {
        case .fileNoSuchFile, .fileReadNoSuchFile: return ENOENT
        case .fileReadNoPermission, .fileWriteNoPermission: return EACCES
        case .fileWriteVolumeReadOnly: return EROFS
        case .fileWriteOutOfSpace: return ENOSPC
        case .fileWriteFileExists: return EEXIST
        case .fileReadTooLarge: return EFBIG
        default: return nil
        }
    }
}
