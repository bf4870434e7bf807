// glibc starts a new malloc arena for every thread that allocates while the others are busy, up to 8 per core, and
// never returns an arena's pages to a pool: a download over 16 connections held 15 thread arenas, each with its own
// mostly idle pages (#39: `fetch` ≤ 24 MiB in every plan; Benchmarks/README.md, fetch-bench `plans`). The executables
// allow as many arenas as the machine has cores, at least 4: as many threads as can allocate at once without waiting
// for each other. A target of its own, linked into `docsync` and `docsync-serve` only: a process that links the
// DocSync library keeps its own malloc settings.
#include "CDocSyncStartup.h"

#include <malloc.h>
#include <unistd.h>

void ds_startup_limit_arenas(void) {
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    mallopt(M_ARENA_MAX, cores > 4 ? (int)cores : 4);
}
