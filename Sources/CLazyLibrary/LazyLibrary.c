#include "CLazyLibrary.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

static void ds_lazy_library_open(struct ds_lazy_library *library) {
    void *handle = dlopen(library->soname, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        const char *reason = dlerror();
        snprintf(library->error, sizeof library->error, "%s cannot be loaded: %s", library->soname,
                 reason != NULL ? reason : "not found");
        return;
    }
    for (size_t index = 0; index < library->count; index++) {
        dlerror();
        void *symbol = dlsym(handle, library->names[index]);
        if (symbol == NULL) {
            library->missing = library->names[index];
            snprintf(library->error, sizeof library->error, "%s has no function %s (an incompatible version?)",
                     library->soname, library->names[index]);
            dlclose(handle);
            return;
        }
        library->slots[index] = symbol;
    }
    library->handle = handle;
    const char *failure = library->after_load != NULL ? library->after_load() : NULL;
    if (failure != NULL) {
        snprintf(library->error, sizeof library->error, "%s: %s", library->soname, failure);
        return;
    }
    atomic_store_explicit(&library->state, 1, memory_order_release);
}

const char *ds_lazy_library_load(struct ds_lazy_library *library, const char **missing) {
    int state = atomic_load_explicit(&library->state, memory_order_acquire);
    if (state == 0) {
        pthread_mutex_lock(&library->mutex);
        if (atomic_load_explicit(&library->state, memory_order_relaxed) == 0) {
            ds_lazy_library_open(library);
            if (atomic_load_explicit(&library->state, memory_order_relaxed) == 0) {
                atomic_store_explicit(&library->state, -1, memory_order_release);
            }
        }
        pthread_mutex_unlock(&library->mutex);
        state = atomic_load_explicit(&library->state, memory_order_acquire);
    }
    if (missing != NULL) *missing = state == 1 ? NULL : library->missing;
    return state == 1 ? NULL : library->error;
}

const char *ds_lazy_library_probe(const char *soname, const char *const *names, size_t count, char *buffer,
                                  size_t size, const char **missing) {
    void **slots = calloc(count, sizeof *slots);
    if (slots == NULL) {
        snprintf(buffer, size, "%s: out of memory", soname);
        *missing = NULL;
        return buffer;
    }
    struct ds_lazy_library library = DS_LAZY_LIBRARY_INIT(soname, names, slots, count, NULL);
    const char *error = ds_lazy_library_load(&library, missing);
    if (error != NULL) snprintf(buffer, size, "%s", error);
    if (library.handle != NULL) dlclose(library.handle);
    free(slots);
    return error != NULL ? buffer : NULL;
}

_Noreturn void ds_lazy_library_abort(struct ds_lazy_library *library) {
    fprintf(stderr, "docsync: %s\n", library->error[0] != 0 ? library->error : library->soname);
    abort();
}
