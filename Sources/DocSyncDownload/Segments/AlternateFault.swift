import DocSyncHTTP

/// A mirror excluded from one download, and why: reported by `docsync fetch` (a line each, and
/// `mirror_faults` in `--json`) and by a sync (`mirror-fault` events). A segmented download never splices an
/// excluded mirror's bytes into the file.
package struct AlternateFault: Sendable, Equatable, CustomStringConvertible {
    /// What kind of fault: a stable snake_case code for scripts (`reason` in JSON). More may be added.
    package struct Reason: Sendable, Hashable, CustomStringConvertible {
        private enum Code: String {
            case htmlPage = "html_page", emptyBody = "empty_body", httpStatus = "http_status"
            case differentFile = "different_file", validatorMismatch = "validator_mismatch"
            case lengthMismatch = "length_mismatch", ignoresRange = "ignores_range", badResponse = "bad_response"
            case dns, tls, transport, verification
        }

        private let code: Code

        private init(_ code: Code) { self.code = code }

        /// A 200 or 206 whose body is an HTML page instead of the file (a soft 404).
        package static let htmlPage = Reason(.htmlPage)
        /// A 200 or 206 with an empty body.
        package static let emptyBody = Reason(.emptyBody)
        /// A status that ends the mirror's part, such as 404 or 403.
        package static let httpStatus = Reason(.httpStatus)
        /// Bytes that differ from the file's where they overlap: the mirror serves another file.
        package static let differentFile = Reason(.differentFile)
        /// A missing strong validator, another ETag or Last-Modified, or a 412 to the download's precondition.
        package static let validatorMismatch = Reason(.validatorMismatch)
        /// Another total length than the file's (a `Content-Range` length, or a 416 inside the file).
        package static let lengthMismatch = Reason(.lengthMismatch)
        /// A 200 with the whole file to a range request: the mirror cannot serve a segment.
        package static let ignoresRange = Reason(.ignoresRange)
        /// A response that breaks the rules: a wrong or missing `Content-Range`, a content coding, multipart.
        package static let badResponse = Reason(.badResponse)
        /// The mirror's host name did not resolve.
        package static let dns = Reason(.dns)
        /// The TLS handshake or the certificate check failed.
        package static let tls = Reason(.tls)
        /// Another transport failure that excludes the mirror (a bad URL, a refused redirect, a protocol not allowed).
        package static let transport = Reason(.transport)
        /// The whole file failed verification with several mirrors; it was fetched again from the first alone.
        package static let verification = Reason(.verification)

        /// The snake_case code, e.g. `html_page`.
        package var description: String { code.rawValue }

        /// The reason of a code from ``description``; nil for a code this version does not know.
        package init?(code: String) {
            guard let known = Code(rawValue: code) else { return nil }
            self.code = known
        }
    }

    /// The mirror's URL, as the feed or the command line gave it (printers redact credentials).
    package var url: String
    package var reason: Reason
    /// One line saying what the mirror did, without the URL.
    package var message: String

    package init(url: String, reason: Reason, message: String) {
        self.url = url
        self.reason = reason
        self.message = message
    }

    /// `URL: message`.
    package var description: String { "\(url): \(message)" }
}

extension AlternateFault.Reason {
    /// The fault of a transport failure that excludes a mirror: `dns`, `tls`, else `transport`.
    init(excluding kind: HTTPTransportError.Kind) {
        switch kind {
        case .resolve: self = .dns
        case .tls, .tlsCertificate: self = .tls
        default: self = .transport
        }
    }
}

extension AlternateFault.Reason {
    /// Why a single-connection download left a mirror for the next one: the transport's kind, or what the last
    /// response's head shows (a web page or an empty body where the file should be, a status). Pure.
    package init(leaving error: DownloadError, head: HTTPResponseHead?) {
        switch error.kind {
        case .transport: self = error.transportKind.map(Self.init(excluding:)) ?? .transport
        case .verification: self = .verification
        case .badResponse: self = .badResponse
        case .http:
            let type = (head?.value("Content-Type") ?? "").lowercased()
            let status = head?.status ?? error.status ?? 0
            if (200..<300).contains(status), type.hasPrefix("text/html") || type.hasPrefix("application/xhtml") {
                self = .htmlPage
            } else if (200..<300).contains(status), head?.value("Content-Length") == "0" {
                self = .emptyBody
            } else {
                self = (200..<300).contains(status) ? .badResponse : .httpStatus
            }
        default: self = .transport
        }
    }
}
