#define _GNU_SOURCE
#define OPENSSL_SUPPRESS_DEPRECATED 1
#include "CDocSyncSys.h"

#include <fcntl.h>
#include <pthread.h>
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

// The state is copied in and out with memcpy: the byte array carries no alignment guarantee.
void ds_sha256_init(ds_sha256_state *state) {
    SHA256_CTX ctx;
    SHA256_Init(&ctx);
    memset(state, 0, sizeof(*state));
    memcpy(state->bytes, &ctx, sizeof(ctx));
}

void ds_sha256_update(ds_sha256_state *state, const void *data, size_t length) {
    SHA256_CTX ctx;
    memcpy(&ctx, state->bytes, sizeof(ctx));
    SHA256_Update(&ctx, data, length);
    memcpy(state->bytes, &ctx, sizeof(ctx));
}

void ds_sha256_final(const ds_sha256_state *state, uint8_t digest[32]) {
    SHA256_CTX copy;
    memcpy(&copy, state->bytes, sizeof(copy));
    SHA256_Final(digest, &copy);
}

void ds_sha256(const void *data, size_t length, uint8_t digest[32]) { SHA256(data, length, digest); }

int ds_openssl_init_without_error_strings(void) {
    return OPENSSL_init_crypto(OPENSSL_INIT_NO_LOAD_CRYPTO_STRINGS, NULL);
}
