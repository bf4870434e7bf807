// The executables' start-up: what runs before any Swift code (GnuTLSImplicitInit.c) and first in `runMain`
// (ArenaLimit.c).
#ifndef DOCSYNC_CDOCSYNCSTARTUP_H
#define DOCSYNC_CDOCSYNCSTARTUP_H

/// Returns 1: GnuTLS's library constructor calls it (the executable's definition interposes libgnutls's weak one)
/// and skips its implicit initialisation. docsync never uses GnuTLS; see GnuTLSImplicitInit.c.
int _gnutls_global_init_skip(void);

/// Caps glibc's malloc arenas at the number of cores (at least 4), before the process starts threads. See ArenaLimit.c.
void ds_startup_limit_arenas(void);

#endif
