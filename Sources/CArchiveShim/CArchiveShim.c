#include "CArchiveShim.h"

#include <CLazyLibrary.h>

#define DS_ARCHIVE_INDEX(type, name, parameters, arguments) ds_archive_index_##name,
#define DS_ARCHIVE_INDEX_VOID(name, parameters, arguments) ds_archive_index_##name,
enum { DS_ARCHIVE_FUNCTIONS(DS_ARCHIVE_INDEX, DS_ARCHIVE_INDEX_VOID) ds_archive_count };

#define DS_ARCHIVE_NAME(type, name, parameters, arguments) "archive_" #name,
#define DS_ARCHIVE_NAME_VOID(name, parameters, arguments) "archive_" #name,
static const char *const ds_archive_names[ds_archive_count] = {
    DS_ARCHIVE_FUNCTIONS(DS_ARCHIVE_NAME, DS_ARCHIVE_NAME_VOID)};
static void *ds_archive_slots[ds_archive_count];

static struct ds_lazy_library ds_archive_library =
    DS_LAZY_LIBRARY_INIT(DS_ARCHIVE_SONAME, ds_archive_names, ds_archive_slots, ds_archive_count, NULL);

const char *ds_archive_load(const char **missing) { return ds_lazy_library_load(&ds_archive_library, missing); }

const char *ds_archive_probe(const char *soname, char *buffer, size_t size, const char **missing) {
    return ds_lazy_library_probe(soname, ds_archive_names, ds_archive_count, buffer, size, missing);
}

// Each wrapper: the guard, then libarchive's function through its slot, cast to the function's own type.
#define DS_ARCHIVE_DEFINE(type, name, parameters, arguments)                           \
    type ds_archive_##name parameters {                                                \
        ds_lazy_library_require(&ds_archive_library);                                  \
        return ((type(*) parameters)ds_archive_slots[ds_archive_index_##name])arguments; \
    }
#define DS_ARCHIVE_DEFINE_VOID(name, parameters, arguments)                            \
    void ds_archive_##name parameters {                                                \
        ds_lazy_library_require(&ds_archive_library);                                  \
        ((void(*) parameters)ds_archive_slots[ds_archive_index_##name])arguments;      \
    }
DS_ARCHIVE_FUNCTIONS(DS_ARCHIVE_DEFINE, DS_ARCHIVE_DEFINE_VOID)
