// A C library opened on first use instead of at start-up (#39): `dlopen` of its soname (RTLD_NOW | RTLD_LOCAL)
// and `dlsym` of exactly the functions its wrapper calls, once, thread-safely. Linking libcurl, libarchive and their
// ~35 dependencies cost every docsync command ~9 ms of start-up, though most commands never call them. Each wrapper
// target (CCurlShim, CArchiveShim) owns one `ds_lazy_library` and resolves its table through it; nothing here is
// imported by Swift.
#ifndef DOCSYNC_CLAZYLIBRARY_H
#define DOCSYNC_CLAZYLIBRARY_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

struct ds_lazy_library {
    /// The soname the package depends on, e.g. "libcurl.so.4".
    const char *soname;
    /// The `count` function names, resolved into `slots` in the same order.
    const char *const *names;
    void **slots;
    size_t count;
    /// Run once after every symbol is resolved (e.g. curl_global_init); NULL or 0 on success, else the failure.
    const char *(*after_load)(void);
    pthread_mutex_t mutex;
    /// 0: not tried yet; 1: loaded; -1: failed (`error`, and `missing` when a symbol was missing).
    _Atomic int state;
    void *handle;
    const char *missing;
    char error[512];
};

#define DS_LAZY_LIBRARY_INIT(soname, names, slots, count, after_load) \
    {(soname), (names), (slots), (count), (after_load), PTHREAD_MUTEX_INITIALIZER, 0, NULL, NULL, {0}}

/// Loads `library` on the first call (later calls return the first call's result at the cost of an atomic load).
/// NULL when every symbol is resolved; else the reason, which names the soname and, for a missing function, its name
/// (also in `*missing` when `missing` is not NULL, else NULL there). The text lives as long as `library`.
const char *ds_lazy_library_load(struct ds_lazy_library *library, const char **missing);

/// The same load of `soname` with the function list `names`, into a library of its own closed afterwards (the
/// wrappers' test probes: a library that is missing or lacks a function). NULL when it loads; else the reason,
/// copied into `buffer`.
const char *ds_lazy_library_probe(const char *soname, const char *const *names, size_t count, char *buffer,
                                  size_t size, const char **missing);

/// Stops the process with `library`'s load error on standard error: for a wrapper called before its library was
/// loaded, which the Swift callers rule out (they load first and throw a typed error).
_Noreturn void ds_lazy_library_abort(struct ds_lazy_library *library);

/// The wrappers' guard: the slots are usable.
static inline void ds_lazy_library_require(struct ds_lazy_library *library) {
    if (atomic_load_explicit(&library->state, memory_order_acquire) != 1 &&
        ds_lazy_library_load(library, NULL) != NULL) {
        ds_lazy_library_abort(library);
    }
}

#endif
