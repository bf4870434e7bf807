import CDocSyncSys

/// libcrypto's start-up for docsync's executables (#39): its error strings (libcrypto's reason texts, ~560 KiB
/// resident once loaded) stay unloaded. libssl's strings are loaded as before, so libcurl's TLS messages read the
/// same ("SSL routines::wrong version number", certificate problems); a libcrypto error shows its numeric code
/// and `reason(N)` instead of its text. libcrypto is loaded on first use (``SHA256/load(for:)``, which `Curl.load`
/// runs before libcurl initialises OpenSSL: the first initialisation decides); this only asks for the option, so
/// it loads nothing at start-up. The CLI calls it; the `DocSync` library never does, so a backend's process is
/// unchanged.
package enum OpenSSLStartup {
    /// libcrypto, when it is loaded, is initialised without its error strings (if OpenSSL refuses, nothing changes).
    package static func skipErrorStrings() { ds_crypto_skip_error_strings_at_load() }
}
