// libarchive, loaded on first use (CLazyLibrary): docsync does not link it, so the commands that never read an
// archive do not pay for loading it and its dependencies at start-up. Swift calls these wrappers, `ds_` followed by
// libarchive's own name, never libarchive's functions (the CArchive module only supplies the types and constants; a
// direct call would not link). Call `ds_archive_load` first: the other wrappers stop the process when libarchive is
// not loaded.
#ifndef DOCSYNC_CARCHIVESHIM_H
#define DOCSYNC_CARCHIVESHIM_H

#include <archive.h>
#include <archive_entry.h>

/// The soname docsync loads (the Debian package's Depends names its package).
#define DS_ARCHIVE_SONAME "libarchive.so.13"

/// Loads libarchive on the first call (thread-safe; later calls cost an atomic load). NULL when loaded; else why
/// not, naming the library, with the missing function in `*missing` (else NULL).
const char *ds_archive_load(const char **missing);

/// The same load of `soname` with libarchive's function list, into a library of its own closed afterwards (tests: a
/// library that is missing or lacks a function). NULL when it loads; else the reason, copied into `buffer`.
const char *ds_archive_probe(const char *soname, char *buffer, size_t size, const char **missing);

// Every libarchive function docsync calls: F(return type, name without "archive_", parameters, arguments) for
// those that return a value, P(…) for those that do not.
#define DS_ARCHIVE_FUNCTIONS(F, P)                                                                                    \
    F(struct archive *, read_new, (void), ())                                                                         \
    F(int, read_free, (struct archive * a), (a))                                                                      \
    F(int, read_support_filter_gzip, (struct archive * a), (a))                                                       \
    F(int, read_support_filter_bzip2, (struct archive * a), (a))                                                      \
    F(int, read_support_filter_xz, (struct archive * a), (a))                                                         \
    F(int, read_support_filter_zstd, (struct archive * a), (a))                                                       \
    F(int, read_support_format_tar, (struct archive * a), (a))                                                        \
    F(int, read_support_format_zip, (struct archive * a), (a))                                                        \
    F(int, read_support_format_xar, (struct archive * a), (a))                                                        \
    F(int, read_set_callback_data, (struct archive * a, void *data), (a, data))                                       \
    F(int, read_set_read_callback, (struct archive * a, archive_read_callback * callback), (a, callback))             \
    F(int, read_set_seek_callback, (struct archive * a, archive_seek_callback * callback), (a, callback))             \
    F(int, read_open1, (struct archive * a), (a))                                                                     \
    F(int, read_next_header, (struct archive * a, struct archive_entry * *entry), (a, entry))                         \
    F(la_ssize_t, read_data, (struct archive * a, void *buffer, size_t size), (a, buffer, size))                     \
    F(la_int64_t, filter_bytes, (struct archive * a, int filter), (a, filter))                                        \
    F(const char *, error_string, (struct archive * a), (a))                                                          \
    F(struct archive *, write_new, (void), ())                                                                        \
    F(int, write_set_format_pax, (struct archive * a), (a))                                                           \
    F(int, write_set_format_gnutar, (struct archive * a), (a))                                                        \
    F(int, write_set_format_ustar, (struct archive * a), (a))                                                         \
    F(int, write_set_format_zip, (struct archive * a), (a))                                                           \
    F(int, write_set_format_xar, (struct archive * a), (a))                                                           \
    F(int, write_add_filter_gzip, (struct archive * a), (a))                                                          \
    F(int, write_add_filter_bzip2, (struct archive * a), (a))                                                         \
    F(int, write_add_filter_xz, (struct archive * a), (a))                                                            \
    F(int, write_add_filter_zstd, (struct archive * a), (a))                                                          \
    F(int, write_open_filename, (struct archive * a, const char *path), (a, path))                                    \
    F(int, write_header, (struct archive * a, struct archive_entry * entry), (a, entry))                              \
    F(la_ssize_t, write_data, (struct archive * a, const void *data, size_t size), (a, data, size))                  \
    F(int, write_close, (struct archive * a), (a))                                                                    \
    F(int, write_free, (struct archive * a), (a))                                                                     \
    F(struct archive_entry *, entry_new, (void), ())                                                                  \
    P(entry_free, (struct archive_entry * entry), (entry))                                                            \
    F(const char *, entry_pathname, (struct archive_entry * entry), (entry))                                          \
    F(const char *, entry_pathname_utf8, (struct archive_entry * entry), (entry))                                     \
    F(const char *, entry_hardlink, (struct archive_entry * entry), (entry))                                          \
    F(const char *, entry_hardlink_utf8, (struct archive_entry * entry), (entry))                                     \
    F(const char *, entry_symlink, (struct archive_entry * entry), (entry))                                           \
    F(const char *, entry_symlink_utf8, (struct archive_entry * entry), (entry))                                      \
    F(__LA_MODE_T, entry_filetype, (struct archive_entry * entry), (entry))                                           \
    F(__LA_MODE_T, entry_perm, (struct archive_entry * entry), (entry))                                               \
    F(la_int64_t, entry_size, (struct archive_entry * entry), (entry))                                                \
    F(int, entry_size_is_set, (struct archive_entry * entry), (entry))                                                \
    P(entry_set_pathname, (struct archive_entry * entry, const char *path), (entry, path))                            \
    P(entry_set_perm, (struct archive_entry * entry, __LA_MODE_T mode), (entry, mode))                                \
    P(entry_set_mtime, (struct archive_entry * entry, time_t seconds, long nanoseconds), (entry, seconds, nanoseconds)) \
    P(entry_set_filetype, (struct archive_entry * entry, unsigned int type), (entry, type))                           \
    P(entry_set_size, (struct archive_entry * entry, la_int64_t size), (entry, size))                                 \
    P(entry_set_symlink, (struct archive_entry * entry, const char *target), (entry, target))                         \
    P(entry_set_hardlink, (struct archive_entry * entry, const char *target), (entry, target))                        \
    P(entry_set_rdevmajor, (struct archive_entry * entry, dev_t major), (entry, major))                               \
    P(entry_set_rdevminor, (struct archive_entry * entry, dev_t minor), (entry, minor))                               \
    P(entry_sparse_add_entry, (struct archive_entry * entry, la_int64_t offset, la_int64_t length),                   \
      (entry, offset, length))                                                                                        \
    P(entry_xattr_add_entry, (struct archive_entry * entry, const char *name, const void *value, size_t size),        \
      (entry, name, value, size))

#define DS_ARCHIVE_DECLARE(type, name, parameters, arguments) type ds_archive_##name parameters;
#define DS_ARCHIVE_DECLARE_VOID(name, parameters, arguments) void ds_archive_##name parameters;
DS_ARCHIVE_FUNCTIONS(DS_ARCHIVE_DECLARE, DS_ARCHIVE_DECLARE_VOID)
#undef DS_ARCHIVE_DECLARE
#undef DS_ARCHIVE_DECLARE_VOID

#endif
