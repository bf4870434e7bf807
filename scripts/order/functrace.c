// Profiling aid for scripts/generate-order-file (never linked into docsync): preloaded, it logs the address of each
// function of the executable the first time it runs, in the order they first run.
//   TEXTTRACE_EXE=BINARY TEXTTRACE_FUNCS=FILE TEXTTRACE_OUT=PREFIX LD_PRELOAD=functrace.so BINARY ...
// FILE lists the functions' entry addresses (hex, as `nm` prints them for the PIE, one a line); the log is
// PREFIX.PID, one hex address a line. How: a breakpoint (int3) on every function's first byte; the first execution
// traps into the handler, which logs the function, puts its byte back and resumes there. A page-granular trace
// (mprotect) lists every function sharing a 4 KiB page with one that ran, which filled the order with cold code.
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

static uintptr_t base, text_lo, text_hi;
static uintptr_t *entries;  // sorted, relative to base
static unsigned char *saved;
static size_t count;
static int out = -1;
static volatile int lock;

static long find(uintptr_t offset) {
    size_t lo = 0, hi = count;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (entries[mid] < offset) lo = mid + 1;
        else hi = mid;
    }
    return lo < count && entries[lo] == offset ? (long)lo : -1;
}

static void protect(uintptr_t address, int writable) {
    uintptr_t page = address & ~(uintptr_t)4095;
    mprotect((void *)page, 4096, PROT_READ | PROT_EXEC | (writable ? PROT_WRITE : 0));
}

static void handler(int sig, siginfo_t *info, void *context) {
    (void)sig;
    (void)info;
    ucontext_t *uc = context;
    uintptr_t address = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP] - 1;
    long index = address >= text_lo && address < text_hi ? find(address - base) : -1;
    if (index < 0) {
        signal(SIGTRAP, SIG_DFL);
        return;
    }
    while (__atomic_test_and_set(&lock, __ATOMIC_ACQUIRE)) {
    }
    if (*(volatile unsigned char *)address == 0xCC) {
        protect(address, 1);
        *(volatile unsigned char *)address = saved[index];
        protect(address, 0);
        char line[32];
        int n = snprintf(line, sizeof line, "%lx\n", (unsigned long)(address - base));
        if (write(out, line, (size_t)n) != n) {
        }
    }
    __atomic_clear(&lock, __ATOMIC_RELEASE);
    uc->uc_mcontext.gregs[REG_RIP] = (greg_t)address;
}

static int compare(const void *a, const void *b) {
    uintptr_t x = *(const uintptr_t *)a, y = *(const uintptr_t *)b;
    return x < y ? -1 : x > y;
}

__attribute__((constructor)) static void init(void) {
    const char *exe = getenv("TEXTTRACE_EXE"), *funcs = getenv("TEXTTRACE_FUNCS"), *prefix = getenv("TEXTTRACE_OUT");
    char self[4096];
    ssize_t length = readlink("/proc/self/exe", self, sizeof self - 1);
    if (!exe || !funcs || !prefix || length <= 0) return;
    self[length] = 0;
    char wanted[4096];
    if (!realpath(exe, wanted) || strcmp(wanted, self) != 0) return;  // a child process: not traced
    FILE *maps = fopen("/proc/self/maps", "r");
    char line[4352];
    while (maps && fgets(line, sizeof line, maps)) {
        unsigned long lo, hi, offset;
        char perms[8], path[4096] = "";
        if (sscanf(line, "%lx-%lx %7s %lx %*s %*s %4095s", &lo, &hi, perms, &offset, path) < 4) continue;
        if (strcmp(path, self) != 0) continue;
        if (offset == 0 && !base) base = lo;
        if (perms[2] == 'x') text_lo = lo, text_hi = hi;
    }
    if (maps) fclose(maps);
    FILE *list = fopen(funcs, "r");
    if (!list || !base || !text_hi) return;
    size_t capacity = 1 << 16;
    entries = malloc(capacity * sizeof *entries);
    unsigned long value;
    while (fscanf(list, "%lx", &value) == 1) {
        if (base + value < text_lo || base + value >= text_hi) continue;
        if (count == capacity) entries = realloc(entries, (capacity *= 2) * sizeof *entries);
        entries[count++] = value;
    }
    fclose(list);
    qsort(entries, count, sizeof *entries, compare);
    size_t unique = 0;
    for (size_t i = 0; i < count; i++)
        if (unique == 0 || entries[unique - 1] != entries[i]) entries[unique++] = entries[i];
    count = unique;
    saved = malloc(count);
    char name[4200];
    snprintf(name, sizeof name, "%s.%d", prefix, (int)getpid());
    out = open(name, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = handler;
    action.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigaction(SIGTRAP, &action, NULL);
    mprotect((void *)text_lo, text_hi - text_lo, PROT_READ | PROT_WRITE | PROT_EXEC);
    for (size_t i = 0; i < count; i++) {
        unsigned char *byte = (unsigned char *)(base + entries[i]);
        saved[i] = *byte;
        *byte = 0xCC;
    }
    mprotect((void *)text_lo, text_hi - text_lo, PROT_READ | PROT_EXEC);
}
