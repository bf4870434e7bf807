import DocSyncHTTP
import DocSyncSupport

/// Why a download failed: what went wrong, at which URL and status, and whether trying later can help.
package struct DownloadError: Error, Sendable, Equatable, CustomStringConvertible {
    package enum Kind: String, Sendable {
        /// The server answered with a status that ends the download (e.g. 404 on every mirror).
        case http
        /// libcurl could not complete the transfer (DNS, connect, TLS, timeout, stall, dropped connection).
        case transport
        /// The server's answer broke the rules (bad Content-Range, wrong bytes, encoded or multipart body).
        case badResponse
        /// The finished file's SHA-256 or length is not the expected one.
        case verification
        /// A local file-system failure (ENOSPC, EIO, …).
        case disk
        /// Not enough free space for what is left, or the free-space reserve was reached while writing.
        case insufficientSpace
        /// The file is longer than the configured maximum (declared, or counted while receiving).
        case tooLarge
        /// Another process holds the partial download.
        case locked
        /// The server kept sending a different representation.
        case tooManyRestarts
        case cancelled
        case invalidRequest
    }

    package var kind: Kind
    package var url: String?
    package var status: Int?
    package var reason: String
    /// Worth trying again later (the partial file is kept).
    package var isTransient: Bool
    /// How the transport failed, for `.transport` errors.
    package var transportKind: HTTPTransportError.Kind?
    /// The mirrors a segmented download excluded before it failed, and why (empty for most errors).
    package var alternateFaults: [AlternateFault] = []

    package init(_ kind: Kind, url: String? = nil, status: Int? = nil, reason: String, isTransient: Bool) {
        self.kind = kind
        self.url = url
        self.status = status
        self.reason = reason
        self.isTransient = isTransient
    }

    /// `url: HTTP status: reason`, leaving out what is absent.
    package var description: String { RequestFailureText.line(url: url, status: status, message: reason) }

    static func disk(_ error: SystemError) -> DownloadError {
        let transient = error.code == ENOSPC || error.code == EIO || error.code == EDQUOT
        return DownloadError(.disk, reason: error.description, isTransient: transient)
    }

    static func transport(_ error: HTTPTransportError) -> DownloadError {
        var failure = DownloadError(
            .transport, url: error.url, reason: "\(error.explanation) (\(error.kind.rawValue))",
            isTransient: error.isTransient)
        failure.transportKind = error.kind
        return failure
    }
}

#if canImport(Glibc)
    import Glibc
#endif
