#define _GNU_SOURCE
#define OPENSSL_SUPPRESS_DEPRECATED 1
#include "CDocSyncSys.h"

#include <CLazyLibrary.h>

#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <linux/fs.h>
#include <stdio.h>
#include <string.h>
#include <linux/stat.h>
#include <linux/openat2.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>
#include <openssl/crypto.h>
#include <openssl/sha.h>

// Defined only in the shipped build (scripts/build-release writes and links it), so nothing in the source tree
// changes with the version: a weak reference is null when no object defines it.
extern const char docsync_build_info[] __attribute__((weak));

const char *ds_build_version(void) {
    return docsync_build_info != NULL ? docsync_build_info : "";
}

const char *ds_build_commit(void) {
    return docsync_build_info != NULL ? docsync_build_info + strlen(docsync_build_info) + 1 : "";
}

#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif
#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE (1 << 0)
#endif

const unsigned int DS_RENAME_EXCHANGE = RENAME_EXCHANGE;
const unsigned int DS_RENAME_NOREPLACE = RENAME_NOREPLACE;

int ds_renameat2(int olddirfd, const char *oldpath, int newdirfd, const char *newpath, unsigned int flags) {
    return (int)syscall(SYS_renameat2, olddirfd, oldpath, newdirfd, newpath, flags);
}

int ds_syncfs(int fd) { return syncfs(fd); }

void ds_set_thread_name(const char *name) {
    char short_name[16];
    strncpy(short_name, name, sizeof short_name - 1);
    short_name[sizeof short_name - 1] = 0;
    pthread_setname_np(pthread_self(), short_name);
}

int ds_openat_beneath(int dirfd, const char *path, int flags) {
    struct open_how how;
    memset(&how, 0, sizeof how);
    how.flags = (unsigned long long)(flags | O_CLOEXEC);
    how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
    return (int)syscall(SYS_openat2, dirfd, path, &how, sizeof how);
}

#ifndef RESOLVE_CACHED
#define RESOLVE_CACHED 0x20
#endif

int ds_openat_beneath_cached(int dirfd, const char *path, int flags) {
    struct open_how how;
    memset(&how, 0, sizeof how);
    how.flags = (unsigned long long)(flags | O_CLOEXEC);
    how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS | RESOLVE_CACHED;
    return (int)syscall(SYS_openat2, dirfd, path, &how, sizeof how);
}

long ds_pread_nowait(int fd, void *buffer, size_t count, int64_t offset) {
    struct iovec vector = {buffer, count};
    return (long)preadv2(fd, &vector, 1, (off_t)offset, RWF_NOWAIT);
}

#ifndef __NR_cachestat
#define __NR_cachestat 451
#endif

long ds_cached_pages(int fd, uint64_t length) {
    struct {
        uint64_t off, len;
    } range = {0, length};
    struct {
        uint64_t nr_cache, nr_dirty, nr_writeback, nr_evicted, nr_recently_evicted;
    } stat;
    if (syscall(__NR_cachestat, fd, &range, &stat, 0) != 0) return -1;
    return (long)stat.nr_cache;
}

int ds_openat_direct(int dirfd, const char *name, int flags) {
    return openat(dirfd, name, flags | O_DIRECT | O_NOFOLLOW, 0644);
}

#ifndef STATX_DIOALIGN
#define STATX_DIOALIGN 0x00002000U
#endif

uint32_t ds_direct_io_alignment(int fd) {
    struct statx st;
    memset(&st, 0, sizeof st);
    if (syscall(SYS_statx, fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &st) != 0 || !(st.stx_mask & STATX_DIOALIGN)) return 0;
    return st.stx_dio_mem_align > st.stx_dio_offset_align ? st.stx_dio_mem_align : st.stx_dio_offset_align;
}

_Static_assert(sizeof(SHA256_CTX) <= sizeof(((ds_sha256_state *)0)->bytes), "SHA256_CTX must fit ds_sha256_state");

// libcrypto, loaded on first use (CLazyLibrary): not linked, so a command that never hashes does not load it and
// relocate its 21k relocations at start-up. C(function) for each function called, in slot order.
#define DS_CRYPTO_FUNCTIONS(C) \
    C(SHA256_Init)             \
    C(SHA256_Update)           \
    C(SHA256_Final)            \
    C(SHA256)                  \
    C(OPENSSL_init_crypto)

#define DS_CRYPTO_INDEX(function) ds_crypto_index_##function,
enum { DS_CRYPTO_FUNCTIONS(DS_CRYPTO_INDEX) ds_crypto_count };
#define DS_CRYPTO_NAME(function) #function,
static const char *const ds_crypto_names[ds_crypto_count] = {DS_CRYPTO_FUNCTIONS(DS_CRYPTO_NAME)};
static void *ds_crypto_slots[ds_crypto_count];
/// libcrypto's `function` through its slot, with the function's own type (<openssl/sha.h>, <openssl/crypto.h>).
#define DS_CRYPTO(function) ((__typeof__(&function))ds_crypto_slots[ds_crypto_index_##function])

static atomic_int ds_crypto_skip_strings;

static const char *ds_crypto_after_load(void) {
    // The first initialisation decides: a later one (libcurl's, loaded after this) loads no error strings either.
    // A refusal changes nothing (the strings are then loaded as usual), so it is not a load failure.
    if (atomic_load(&ds_crypto_skip_strings)) {
        DS_CRYPTO(OPENSSL_init_crypto)(OPENSSL_INIT_NO_LOAD_CRYPTO_STRINGS, NULL);
    }
    return NULL;
}

static struct ds_lazy_library ds_crypto_library =
    DS_LAZY_LIBRARY_INIT(DS_CRYPTO_SONAME, ds_crypto_names, ds_crypto_slots, ds_crypto_count, ds_crypto_after_load);

const char *ds_crypto_load(const char **missing) { return ds_lazy_library_load(&ds_crypto_library, missing); }

const char *ds_crypto_probe(const char *soname, char *buffer, size_t size, const char **missing) {
    return ds_lazy_library_probe(soname, ds_crypto_names, ds_crypto_count, buffer, size, missing);
}

void ds_crypto_skip_error_strings_at_load(void) { atomic_store(&ds_crypto_skip_strings, 1); }

// The state is copied in and out with memcpy: the byte array carries no alignment guarantee.
void ds_sha256_init(ds_sha256_state *state) {
    ds_lazy_library_require(&ds_crypto_library);
    SHA256_CTX ctx;
    DS_CRYPTO(SHA256_Init)(&ctx);
    memset(state, 0, sizeof(*state));
    memcpy(state->bytes, &ctx, sizeof(ctx));
}

void ds_sha256_update(ds_sha256_state *state, const void *data, size_t length) {
    ds_lazy_library_require(&ds_crypto_library);
    SHA256_CTX ctx;
    memcpy(&ctx, state->bytes, sizeof(ctx));
    DS_CRYPTO(SHA256_Update)(&ctx, data, length);
    memcpy(state->bytes, &ctx, sizeof(ctx));
}

void ds_sha256_final(const ds_sha256_state *state, uint8_t digest[32]) {
    ds_lazy_library_require(&ds_crypto_library);
    SHA256_CTX copy;
    memcpy(&copy, state->bytes, sizeof(copy));
    DS_CRYPTO(SHA256_Final)(digest, &copy);
}

void ds_sha256(const void *data, size_t length, uint8_t digest[32]) {
    ds_lazy_library_require(&ds_crypto_library);
    DS_CRYPTO(SHA256)(data, length, digest);
}
