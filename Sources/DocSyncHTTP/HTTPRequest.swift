/// One HTTP GET as libcurl will send it. Redirects are followed (http/https only) up to `maxRedirects`.
package struct HTTPRequest: Sendable {
    package var url: String
    /// Extra request headers as `Name: value` lines (e.g. `Range`, `If-Range`, `If-None-Match`).
    package var headers: [String]
    package var options: HTTPOptions
    /// A connection slot to reuse (keep-alive across the requests of one download); nil: a connection of its own.
    package var connection: HTTPConnection?

    package init(
        url: String, headers: [String] = [], options: HTTPOptions = HTTPOptions(), connection: HTTPConnection? = nil
    ) {
        self.url = url
        self.headers = headers
        self.options = options
        self.connection = connection
    }
}

/// Transport settings shared by every request of a download or a feed refresh.
package struct HTTPOptions: Sendable, Equatable {
    /// Seconds allowed for the TCP + TLS connect.
    package var connectTimeout: Int = 30
    /// A transfer slower than `lowSpeedLimit` bytes/s for `lowSpeedTime` seconds is a stall (a transient error).
    package var lowSpeedLimit: Int = 1024
    package var lowSpeedTime: Int = 30
    /// Upper bound for one attempt in seconds; 0 means none.
    package var totalTimeout: Int = 0
    package var followRedirects = true
    package var maxRedirects: Int = 10
    /// Explicit proxy URL; nil uses the standard `http_proxy` / `https_proxy` / `no_proxy` environment variables.
    package var proxy: String?
    /// PEM file of the certificate authorities to trust for https; nil uses `CURL_CA_BUNDLE` when set, else the
    /// system's bundle.
    package var caFile: String?
    /// Receive rate cap in bytes/s; 0 means unlimited.
    package var maxReceiveRate: Int64 = 0
    package var userAgent = "docsync/0.1"
    package var httpVersion: HTTPVersion = .automatic
    /// Only https, for the first request and every redirect (`[network] require_https`).
    package var httpsOnly = false
    /// Follow a redirect that changes the address scope (public to private or back) or leads from one private host
    /// to another (`RedirectPolicy`). Checked on the address each connection really uses, before it connects;
    /// behind an explicit `proxy` only the proxy's address is seen, so a redirect's address literal is judged.
    package var allowPrivateRedirects = false
    /// Connect to link-local addresses (169.254.0.0/16, fe80::/10) and cloud metadata hosts
    /// (`AddressScope.metadataHostNames`), first request or redirect (`[network] allow_link_local`).
    package var allowLinkLocal = false
    /// How addresses are classified for `allowPrivateRedirects` (tests mark loopback endpoints public).
    package var addressClassifier = AddressClassifier()
    /// libcurl's receive buffer (`CURLOPT_BUFFERSIZE`, 1 KiB to 512 KiB): 64 KiB stays in cache and larger was no
    /// faster; a download over several connections gives each a share of one budget (`TransferMemory`).
    package var receiveBufferSize = 64 << 10

    package init() {}
}
