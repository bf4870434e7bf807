// GnuTLS stays uninitialised in docsync's process: ~770 KiB of resident memory docsync never uses (#39).
//
// Debian's libcurl (the OpenSSL flavour) links GnuTLS indirectly, through librtmp and libldap, and GnuTLS
// initialises itself in its library constructor (random generator, ASN.1 trees, crypto back-ends) unless
// `_gnutls_global_init_skip()` returns non-zero or GNUTLS_NO_IMPLICIT_INIT=1 is in the environment. libgnutls
// exports that function as a weak symbol and calls it through its PLT, so the executable's definition below
// interposes it: Package.swift exports it from the executables (`--export-dynamic-symbol`). The environment
// variable cannot do it from inside: a DT_PREINIT_ARRAY function runs before every library's constructor, but
// glibc's own initialiser then resets `environ` to the process's original block, so GnuTLS never sees a `setenv`
// made there; and the variable would reach the processes docsync starts (a post-install hook may run a program
// that relies on GnuTLS's implicit initialisation). The function changes this process only.
//
// Why it is safe: docsync restricts every transfer to http/https (CURLOPT_PROTOCOLS_STR and
// CURLOPT_REDIR_PROTOCOLS_STR in DocSyncHTTP's Curl.swift), and libcurl4's TLS is OpenSSL's, so the rtmp and
// ldap(s) paths that would use GnuTLS are never reached. Were they reached, librtmp and libldap call
// gnutls_global_init themselves, which initialises GnuTLS then (only the constructor and destructor consult this
// function). GnuTLS's destructor skips its deinit likewise: there is nothing to undo.
//
// A target of its own, linked through DocSyncCLI into `docsync` and `docsync-serve` only: a backend that links the
// DocSync library keeps GnuTLS's default in its own process.
#include "CDocSyncStartup.h"

int _gnutls_global_init_skip(void) { return 1; }
