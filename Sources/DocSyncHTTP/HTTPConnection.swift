import CCurl
import DocSyncSupport

/// A connection slot that successive requests of one download share (speed: keep-alive): libcurl's easy
/// handle of the last request is kept, with its open connection, and the next request to the same URL reuses it
/// instead of a new TCP and TLS handshake. A handle is kept only after a transfer that was not redirected, so a
/// reused connection always goes to the URL's own host, admitted when it was opened; the scope of that first
/// address carries over, so the redirect policy judges later redirects exactly as on a new connection.
///
/// `@unchecked Sendable`: the handle is taken out and put back while holding `lock`, and used by one transfer at a
/// time.
public final class HTTPConnection: @unchecked Sendable {
    private let lock = ConditionLock()
    private var handle: UnsafeMutableRawPointer?
    private var url: String?
    private var origin: AddressOrigin?

    public init() {}

    deinit {
        if let handle { curl_easy_cleanup(handle) }
    }

    /// The kept handle when it last served `url` (reset to default options), with its first address and scope.
    func take(for url: String) -> (handle: UnsafeMutableRawPointer, origin: AddressOrigin?)? {
        let kept: (UnsafeMutableRawPointer, String?, AddressOrigin?)? = lock.withLock {
            guard let handle else { return nil }
            defer {
                self.handle = nil
                self.url = nil
                origin = nil
            }
            return (handle, self.url, origin)
        }
        guard let (handle, keptURL, keptOrigin) = kept else { return nil }
        guard keptURL == url else {
            curl_easy_cleanup(handle)
            return nil
        }
        curl_easy_reset(handle)  // options back to defaults; the connection and DNS caches stay
        return (handle, keptOrigin)
    }

    /// Keeps `handle` for the next request to `url` (cleaning up one kept meanwhile).
    func keep(_ handle: UnsafeMutableRawPointer, for url: String, origin: AddressOrigin?) {
        let previous: UnsafeMutableRawPointer? = lock.withLock {
            defer {
                self.handle = handle
                self.url = url
                self.origin = origin
            }
            return self.handle
        }
        if let previous { curl_easy_cleanup(previous) }
    }
}
