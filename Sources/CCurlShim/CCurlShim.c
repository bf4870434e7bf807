#include "CCurlShim.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdatomic.h>
#include <sys/socket.h>

CURLcode ds_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode ds_curl_setopt_off(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode ds_curl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode ds_curl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode ds_curl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode ds_curl_setopt_data_callback(CURL *handle, CURLoption option, ds_curl_data_cb callback) {
    return curl_easy_setopt(handle, option, callback);
}

CURLcode ds_curl_setopt_xferinfo_callback(CURL *handle, ds_curl_xferinfo_cb callback) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
}

CURLcode ds_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

CURLcode ds_curl_getinfo_off(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}

CURLcode ds_curl_getinfo_string(CURL *handle, CURLINFO info, const char **value) {
    return curl_easy_getinfo(handle, info, value);
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
    atomic_store(&ds_address_check, check);
    CURLcode code = curl_easy_setopt(handle, CURLOPT_OPENSOCKETFUNCTION, ds_opensocket);
    if (code == CURLE_OK) code = curl_easy_setopt(handle, CURLOPT_OPENSOCKETDATA, userdata);
    return code;
}
