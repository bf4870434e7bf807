// Linux calls Swift's Glibc module does not export (they need _GNU_SOURCE), and OpenSSL's SHA-256
// behind a fixed-size, copyable state so a hash in progress can be saved in a journal and resumed.
#ifndef DOCSYNC_CDOCSYNCSYS_H
#define DOCSYNC_CDOCSYNCSYS_H

#include <stddef.h>
#include <stdint.h>

/// The build's version and commit ("" in a build without them): scripts/build-release links an object defining
/// `docsync_build_info` ("VERSION\0COMMIT\0"); the reference is weak, so other builds link without it.
const char *ds_build_version(void);
const char *ds_build_commit(void);

/// renameat2(2); flags 0 or DS_RENAME_EXCHANGE / DS_RENAME_NOREPLACE. Returns 0 or -1 with errno set.
int ds_renameat2(int olddirfd, const char *oldpath, int newdirfd, const char *newpath, unsigned int flags);
extern const unsigned int DS_RENAME_EXCHANGE;
extern const unsigned int DS_RENAME_NOREPLACE;

/// syncfs(2): flush the whole filesystem holding fd. Returns 0 or -1 with errno set.
int ds_syncfs(int fd);

/// openat(2) with O_DIRECT | O_NOFOLLOW added to flags (Glibc's Swift module lacks O_DIRECT). Returns the fd or -1
/// with errno set.
int ds_openat_direct(int dirfd, const char *name, int flags);

/// openat2(2) with RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS: opens `path` (relative, several components) below dirfd,
/// failing with EXDEV when it (or a symlink on the way) would leave dirfd's tree. flags get O_CLOEXEC added.
/// Returns the fd or -1 with errno set (ENOSYS on kernels before 5.6, or where a seccomp filter refuses it).
int ds_openat_beneath(int dirfd, const char *path, int flags);

/// ds_openat_beneath with RESOLVE_CACHED as well: fails with EAGAIN instead of waiting when a component is not in
/// the kernel's lookup cache (EINVAL before Linux 5.12), so that it can be tried on a thread that must not block.
int ds_openat_beneath_cached(int dirfd, const char *path, int flags);

/// preadv2(2) of one buffer with RWF_NOWAIT: only what the page cache holds now; -1 with EAGAIN when nothing is.
long ds_pread_nowait(int fd, void *buffer, size_t count, int64_t offset);

/// cachestat(2) (Linux 6.5): how many pages of `fd`'s first `length` bytes the page cache holds, or -1 with errno
/// (ENOSYS where the kernel has no such call).
long ds_cached_pages(int fd, uint64_t length);

/// The stricter of statx(2)'s direct-I/O memory and offset alignments for fd, or 0 when the kernel or the file
/// system does not report them.
uint32_t ds_direct_io_alignment(int fd);

/// Names the calling thread (pthread_setname_np; at most 15 bytes are kept).
void ds_set_thread_name(const char *name);

/// OpenSSL SHA256_CTX as plain bytes: a prefix hash can be serialised and continued later. libcrypto is loaded on
/// first use: call `ds_crypto_load` first; the `ds_sha256` functions stop the process with the loader's reason when
/// it cannot be loaded.
typedef struct {
    uint8_t bytes[112];
} ds_sha256_state;

void ds_sha256_init(ds_sha256_state *state);
void ds_sha256_update(ds_sha256_state *state, const void *data, size_t length);
void ds_sha256_final(const ds_sha256_state *state, uint8_t digest[32]);
/// One-shot digest of a buffer.
void ds_sha256(const void *data, size_t length, uint8_t digest[32]);

/// The soname of the libcrypto docsync loads (the Debian package's Depends names its package, libssl3).
#define DS_CRYPTO_SONAME "libcrypto.so.3"

/// Loads libcrypto on the first call (thread-safe; later calls cost an atomic load). NULL when loaded; else why
/// not, naming the library, with the missing function in `*missing` (else NULL).
const char *ds_crypto_load(const char **missing);

/// The same load of `soname` with libcrypto's function list, into a library of its own closed afterwards (tests: a
/// library that is missing or lacks a function). NULL when it loads; else the reason, copied into `buffer`.
const char *ds_crypto_probe(const char *soname, char *buffer, size_t size, const char **missing);

/// When libcrypto is loaded, initialise it without its error strings (OPENSSL_INIT_NO_LOAD_CRYPTO_STRINGS): the
/// first initialisation decides, so a later one (libcurl's, which loads after libcrypto) does not load them either.
/// The executables ask for it at start-up; a process that links DocSync and never asks is unchanged.
void ds_crypto_skip_error_strings_at_load(void);

#endif
