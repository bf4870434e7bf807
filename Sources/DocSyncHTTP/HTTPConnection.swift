import CCurlShim
import DocSyncSupport
import Synchronization

/// A connection slot that successive requests of one download share (speed: keep-alive): libcurl's easy
/// handle of the last request is kept, with its open connection, and the next request to the same URL reuses it
/// instead of a new TCP and TLS handshake. A handle is kept only after a transfer that was not redirected, so a
/// reused connection always goes to the URL's own host, admitted when it was opened; the scope of that first
/// address carries over, so the redirect policy judges later redirects exactly as on a new connection. The handle is
/// used by one transfer at a time: it is taken out of the slot while in use. A slot made `byOrigin` (an
/// `HTTPConnectionPool`'s) serves any URL of the same origin — scheme, credentials, host and port — as the last one:
/// the same host, admitted when the connection was opened.
package final class HTTPConnection: Sendable {
    /// The kept handle (its address: a value, so the slot is `Sendable`), the URL it last served and that
    /// connection's first address and scope.
    private struct Kept {
        var address: UInt
        var url: String
        var origin: AddressOrigin?

        var handle: UnsafeMutableRawPointer { UnsafeMutableRawPointer(bitPattern: address)! }
    }

    private let kept = Mutex<Kept?>(nil)
    private let byOrigin: Bool

    package init() { byOrigin = false }

    /// A slot any URL of the kept one's origin may reuse (`HTTPConnectionPool`).
    package init(byOrigin: Bool) { self.byOrigin = byOrigin }

    deinit {
        if let handle = kept.withLock({ $0.take()?.handle }) { ds_curl_easy_cleanup(handle) }
    }

    /// The kept handle when it last served `url` (reset to default options), with its first address and scope.
    func take(for url: String) -> (handle: UnsafeMutableRawPointer, origin: AddressOrigin?)? {
        guard let taken = kept.withLock({ $0.take() }) else { return nil }
        guard taken.url == url || byOrigin && HTTPConnectionPool.sameOrigin(taken.url, url) else {
            ds_curl_easy_cleanup(taken.handle)
            return nil
        }
        ds_curl_easy_reset(taken.handle)  // options back to defaults; the connection and DNS caches stay
        return (taken.handle, taken.origin)
    }

    /// Keeps `handle` for the next request to `url` (cleaning up one kept meanwhile).
    func keep(_ handle: UnsafeMutableRawPointer, for url: String, origin: AddressOrigin?) {
        let previous = kept.withLock { kept in
            defer { kept = Kept(address: UInt(bitPattern: handle), url: url, origin: origin) }
            return kept.take()?.handle
        }
        if let previous { ds_curl_easy_cleanup(previous) }
    }
}
