// libcurl, loaded on first use (CLazyLibrary): docsync does not link it, so the commands that never transfer do not
// pay for loading it and its ~33 dependencies at start-up. Swift calls these wrappers, never libcurl's own functions
// (the CCurl module only supplies the types and constants; a direct call would not link). Call `ds_curl_load` first:
// the other wrappers stop the process when libcurl is not loaded. The setopt / getinfo wrappers are typed,
// non-variadic forms of libcurl's variadic curl_easy_setopt / curl_easy_getinfo, which Swift cannot call.
#ifndef DOCSYNC_CCURLSHIM_H
#define DOCSYNC_CCURLSHIM_H

#include <curl/curl.h>

/// The soname docsync loads (the Debian package's Depends names its package).
#define DS_CURL_SONAME "libcurl.so.4"

/// Loads libcurl on the first call (thread-safe; later calls cost an atomic load) and runs curl_global_init once.
/// NULL when loaded; else why not, naming the library, with the missing function in `*missing` (else NULL).
const char *ds_curl_load(const char **missing);

/// The same load of `soname` with libcurl's function list, into a library of its own closed afterwards (tests: a
/// library that is missing or lacks a function). NULL when it loads; else the reason, copied into `buffer`.
const char *ds_curl_probe(const char *soname, char *buffer, size_t size, const char **missing);

CURL *ds_curl_easy_init(void);
void ds_curl_easy_cleanup(CURL *handle);
void ds_curl_easy_reset(CURL *handle);
CURLcode ds_curl_easy_perform(CURL *handle);
const char *ds_curl_easy_strerror(CURLcode code);
struct curl_slist *ds_curl_slist_append(struct curl_slist *list, const char *text);
void ds_curl_slist_free_all(struct curl_slist *list);

typedef size_t (*ds_curl_data_cb)(char *ptr, size_t size, size_t nmemb, void *userdata);
typedef int (*ds_curl_xferinfo_cb)(void *userdata, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal,
                                   curl_off_t ulnow);

CURLcode ds_curl_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode ds_curl_setopt_off(CURL *handle, CURLoption option, curl_off_t value);
CURLcode ds_curl_setopt_string(CURL *handle, CURLoption option, const char *value);
CURLcode ds_curl_setopt_pointer(CURL *handle, CURLoption option, void *value);
CURLcode ds_curl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value);
CURLcode ds_curl_setopt_data_callback(CURL *handle, CURLoption option, ds_curl_data_cb callback);
CURLcode ds_curl_setopt_xferinfo_callback(CURL *handle, ds_curl_xferinfo_cb callback);

CURLcode ds_curl_getinfo_long(CURL *handle, CURLINFO info, long *value);
CURLcode ds_curl_getinfo_off(CURL *handle, CURLINFO info, curl_off_t *value);
CURLcode ds_curl_getinfo_string(CURL *handle, CURLINFO info, const char **value);

/// Judges one address libcurl is about to connect to: `address` holds 4 (AF_INET) or 16 (AF_INET6) bytes in
/// network order. Returns nonzero to allow the connection.
typedef int (*ds_curl_address_check_cb)(void *userdata, int family, const unsigned char *address, unsigned int port);

/// Installs an open-socket callback that asks `check` (with `userdata`) before every connection of `handle`; a
/// refused address fails the connect (CURLE_COULDNT_CONNECT). `check` must be the same function on every call.
CURLcode ds_curl_set_address_check(CURL *handle, ds_curl_address_check_cb check, void *userdata);

/// CURL_WRITEFUNC_ERROR where available (curl ≥ 7.87), else 0 (which also aborts as a short write).
size_t ds_curl_writefunc_error(void);

#endif
