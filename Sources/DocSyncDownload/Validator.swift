import DocSyncHTTP

/// The validators a response carried, and which of them may be trusted as strong (RFC 9110 §8.8.1).
package struct Validator: Sendable, Equatable {
    /// The `ETag` exactly as sent (weak ones included, so a change can still be noticed).
    package var etag: String?
    /// `Last-Modified` exactly as sent.
    package var lastModified: String?
    /// True when `lastModified` is strong: it parses and is at least one second before the response's `Date`.
    package var lastModifiedIsStrong: Bool

    package init(etag: String? = nil, lastModified: String? = nil, lastModifiedIsStrong: Bool = false) {
        self.etag = etag
        self.lastModified = lastModified
        self.lastModifiedIsStrong = lastModifiedIsStrong
    }

    package init(head: HTTPResponseHead) {
        etag = head.value("ETag")
        lastModified = head.value("Last-Modified")
        if let lastModified, let modified = HTTPDate.parse(lastModified),
            let dateField = head.value("Date"), let date = HTTPDate.parse(dateField)
        {
            lastModifiedIsStrong = date - modified >= 1
        } else {
            lastModifiedIsStrong = false
        }
    }

    /// A strong entity tag: present, and not `W/"…"`.
    package var strongETag: String? {
        guard let etag, !etag.hasPrefix("W/"), etag.hasPrefix("\""), etag.hasSuffix("\""), etag.count >= 2 else {
            return nil
        }
        return etag
    }

    /// The value to send in `If-Range`: a strong ETag, else a strong Last-Modified, else nothing.
    package var ifRange: String? {
        if let strongETag { return strongETag }
        if etag == nil, lastModifiedIsStrong { return lastModified }
        return nil
    }
}
