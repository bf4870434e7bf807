// Profiling aid for scripts/generate-order-file (never linked into docsync): preloaded, it logs the page offset of
// each 4 KiB page of the executable's code the first time it runs.
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/mman.h>
#include <stdint.h>
// Records which 4 KiB pages of the main executable's code run: the code is made inaccessible, and each first
// execution of a page faults once into this handler, which logs the page and opens it again.
static uintptr_t lo, hi, base;
static int out = -1;
static void handler(int sig, siginfo_t *info, void *ctx) {
    uintptr_t a = (uintptr_t)info->si_addr;
    if (a < lo || a >= hi) { signal(SIGSEGV, SIG_DFL); return; }
    uintptr_t page = a & ~(uintptr_t)4095;
    char buf[32]; int n = snprintf(buf, sizeof buf, "%lx\n", (unsigned long)(page - base));
    write(out, buf, n);
    mprotect((void *)page, 4096, PROT_READ | PROT_EXEC);
}
__attribute__((constructor)) static void init(void) {
    const char *pat = getenv("TEXTTRACE_EXE"), *path = getenv("TEXTTRACE_OUT");
    if (!pat || !path) return;
    FILE *m = fopen("/proc/self/maps", "r"); char line[1024];
    while (fgets(line, sizeof line, m)) {
        unsigned long a, b, off; char perms[8];
        if (sscanf(line, "%lx-%lx %7s %lx", &a, &b, perms, &off) != 4) continue;
        if (!strstr(line, pat)) continue;
        if (off == 0) base = a;
        if (perms[2] == 'x') { lo = a; hi = b; }
    }
    fclose(m);
    char p[512]; snprintf(p, sizeof p, "%s.%d", path, getpid());
    out = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    struct sigaction sa; memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = handler; sa.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigaction(SIGSEGV, &sa, 0);
    mprotect((void *)lo, hi - lo, PROT_NONE);
}
