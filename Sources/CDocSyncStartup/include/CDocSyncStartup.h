// The executables' start-up: what runs before any Swift code (GnuTLSImplicitInit.c).
#ifndef DOCSYNC_CDOCSYNCSTARTUP_H
#define DOCSYNC_CDOCSYNCSTARTUP_H

/// Returns 1: GnuTLS's library constructor calls it (the executable's definition interposes libgnutls's weak one)
/// and skips its implicit initialisation. docsync never uses GnuTLS; see GnuTLSImplicitInit.c.
int _gnutls_global_init_skip(void);

#endif
