import CDocSyncSys

/// libcrypto's start-up for docsync's executables (#39): its error strings (libcrypto's reason texts, ~560 KiB
/// resident once loaded) stay unloaded. libssl's strings are loaded as before, so libcurl's TLS messages read the
/// same ("SSL routines::wrong version number", certificate problems); a libcrypto error shows its numeric code
/// and `reason(N)` instead of its text. Call it first thing, before libcurl initialises OpenSSL: the first
/// initialisation decides. The CLI calls it; the `DocSync` library never does, so a backend's process is unchanged.
package enum OpenSSLStartup {
    /// Initialises libcrypto without its error strings; false if OpenSSL refused (nothing changes then).
    @discardableResult
    package static func skipErrorStrings() -> Bool { ds_openssl_init_without_error_strings() == 1 }
}
