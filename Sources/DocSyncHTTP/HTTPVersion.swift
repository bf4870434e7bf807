/// Which HTTP version a transfer asks libcurl for.
package enum HTTPVersion: Sendable, Equatable {
    /// libcurl's choice: HTTP/1.1 for http://, HTTP/2 through ALPN for https:// when the server offers it.
    case automatic
    /// HTTP/1.1 only.
    case http11
    /// HTTP/2 on cleartext connections without an Upgrade (h2c "prior knowledge"), e.g. to test HTTP/2 locally.
    case http2PriorKnowledge
}
