#include "CCurlShim.h"

#include <CLazyLibrary.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdatomic.h>
#include <sys/socket.h>

// Every libcurl function docsync calls: X(return type, name without "curl_", parameter types).
#define DS_CURL_FUNCTIONS(X)                                              \
    X(CURLcode, global_init, (long))                                      \
    X(CURL *, easy_init, (void))                                          \
    X(void, easy_cleanup, (CURL *))                                       \
    X(void, easy_reset, (CURL *))                                         \
    X(CURLcode, easy_perform, (CURL *))                                   \
    X(const char *, easy_strerror, (CURLcode))                            \
    X(CURLcode, easy_setopt, (CURL *, CURLoption, ...))                   \
    X(CURLcode, easy_getinfo, (CURL *, CURLINFO, ...))                    \
    X(struct curl_slist *, slist_append, (struct curl_slist *, const char *)) \
    X(void, slist_free_all, (struct curl_slist *))

#define DS_CURL_INDEX(type, name, parameters) ds_curl_index_##name,
enum { DS_CURL_FUNCTIONS(DS_CURL_INDEX) ds_curl_count };
#define DS_CURL_NAME(type, name, parameters) "curl_" #name,
static const char *const ds_curl_names[ds_curl_count] = {DS_CURL_FUNCTIONS(DS_CURL_NAME)};
static void *ds_curl_slots[ds_curl_count];

static const char *ds_curl_global_init(void);
static struct ds_lazy_library ds_curl_library =
    DS_LAZY_LIBRARY_INIT(DS_CURL_SONAME, ds_curl_names, ds_curl_slots, ds_curl_count, ds_curl_global_init);

/// libcurl's function `name`, of its type, once loaded.
#define DS_CURL(name) ((ds_curl_type_##name)ds_curl_slots[ds_curl_index_##name])
#define DS_CURL_TYPE(type, name, parameters) typedef type(*ds_curl_type_##name) parameters;
DS_CURL_FUNCTIONS(DS_CURL_TYPE)

static const char *ds_curl_global_init(void) {
    return DS_CURL(global_init)(CURL_GLOBAL_ALL) == CURLE_OK ? NULL : "curl_global_init failed";
}

const char *ds_curl_load(const char **missing) { return ds_lazy_library_load(&ds_curl_library, missing); }

const char *ds_curl_probe(const char *soname, char *buffer, size_t size, const char **missing) {
    return ds_lazy_library_probe(soname, ds_curl_names, ds_curl_count, buffer, size, missing);
}

CURL *ds_curl_easy_init(void) {
    ds_lazy_library_require(&ds_curl_library);
    return DS_CURL(easy_init)();
}

void ds_curl_easy_cleanup(CURL *handle) {
    ds_lazy_library_require(&ds_curl_library);
    DS_CURL(easy_cleanup)(handle);
}

void ds_curl_easy_reset(CURL *handle) {
    ds_lazy_library_require(&ds_curl_library);
    DS_CURL(easy_reset)(handle);
}

CURLcode ds_curl_easy_perform(CURL *handle) {
    ds_lazy_library_require(&ds_curl_library);
    return DS_CURL(easy_perform)(handle);
}

const char *ds_curl_easy_strerror(CURLcode code) {
    ds_lazy_library_require(&ds_curl_library);
    return DS_CURL(easy_strerror)(code);
}

struct curl_slist *ds_curl_slist_append(struct curl_slist *list, const char *text) {
    ds_lazy_library_require(&ds_curl_library);
    return DS_CURL(slist_append)(list, text);
}

void ds_curl_slist_free_all(struct curl_slist *list) {
    ds_lazy_library_require(&ds_curl_library);
    DS_CURL(slist_free_all)(list);
}


CURLcode ds_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    ds_lazy_library_require(&ds_curl_library);
    return DS_CURL(easy_setopt)(handle, option, value);
}

CURLcode ds_curl_setopt_off(CURL *handle, CURLoption option, curl_off_t value) {
    ds_lazy_library_require(&ds_curl_library);
    return DS_CURL(easy_setopt)(handle, option, value);
}

CURLcode ds_curl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    ds_lazy_library_require(&ds_curl_library);
    return DS_CURL(easy_setopt)(handle, option, value);
}

CURLcode ds_curl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    ds_lazy_library_require(&ds_curl_library);
    return DS_CURL(easy_setopt)(handle, option, value);
}

CURLcode ds_curl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    ds_lazy_library_require(&ds_curl_library);
    return DS_CURL(easy_setopt)(handle, option, value);
}

CURLcode ds_curl_setopt_data_callback(CURL *handle, CURLoption option, ds_curl_data_cb callback) {
    ds_lazy_library_require(&ds_curl_library);
    return DS_CURL(easy_setopt)(handle, option, callback);
}

CURLcode ds_curl_setopt_xferinfo_callback(CURL *handle, ds_curl_xferinfo_cb callback) {
    ds_lazy_library_require(&ds_curl_library);
    return DS_CURL(easy_setopt)(handle, CURLOPT_XFERINFOFUNCTION, callback);
}

CURLcode ds_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    ds_lazy_library_require(&ds_curl_library);
    return DS_CURL(easy_getinfo)(handle, info, value);
}

CURLcode ds_curl_getinfo_off(CURL *handle, CURLINFO info, curl_off_t *value) {
    ds_lazy_library_require(&ds_curl_library);
    return DS_CURL(easy_getinfo)(handle, info, value);
}

CURLcode ds_curl_getinfo_string(CURL *handle, CURLINFO info, const char **value) {
    ds_lazy_library_require(&ds_curl_library);
    return DS_CURL(easy_getinfo)(handle, info, value);
}

size_t ds_curl_writefunc_error(void) {
#ifdef CURL_WRITEFUNC_ERROR
    return CURL_WRITEFUNC_ERROR;
#else
    return 0;
#endif
}

static _Atomic(ds_curl_address_check_cb) ds_address_check;

static curl_socket_t ds_opensocket(void *userdata, curlsocktype purpose, struct curl_sockaddr *address) {
    ds_curl_address_check_cb check = atomic_load(&ds_address_check);
    if (purpose == CURLSOCKTYPE_IPCXN && check != NULL) {
        const unsigned char *bytes = NULL;
        unsigned int port = 0;
        if (address->family == AF_INET) {
            const struct sockaddr_in *in = (const struct sockaddr_in *)&address->addr;
            bytes = (const unsigned char *)&in->sin_addr;
            port = ntohs(in->sin_port);
        } else if (address->family == AF_INET6) {
            const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)&address->addr;
            bytes = (const unsigned char *)&in6->sin6_addr;
            port = ntohs(in6->sin6_port);
        }
        if (bytes != NULL && !check(userdata, address->family, bytes, port)) return CURL_SOCKET_BAD;
    }
    return socket(address->family, address->socktype, address->protocol);
}

CURLcode ds_curl_set_address_check(CURL *handle, ds_curl_address_check_cb check, void *userdata) {
    ds_lazy_library_require(&ds_curl_library);
    atomic_store(&ds_address_check, check);
    CURLcode code = DS_CURL(easy_setopt)(handle, CURLOPT_OPENSOCKETFUNCTION, ds_opensocket);
    if (code == CURLE_OK) code = DS_CURL(easy_setopt)(handle, CURLOPT_OPENSOCKETDATA, userdata);
    return code;
}
