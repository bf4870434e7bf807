// libxml2's xmlversion.h turns on LIBXML_ICU_ENABLED, which makes encoding.h include the system ICU headers; their
// `UErrorCode` then clashes with Foundation's bundled ICU in any Swift module that also sees Foundation. docsync
// never touches the ICU-only fields (of xmlCharEncodingHandler), so hide them.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/xmlreader.h>
#include <libxml/parser.h>
#include <libxml/HTMLparser.h>
#include <libxml/uri.h>
#include <libxml/xmlerror.h>
#include <libxml/globals.h>

// `xmlFree` is a global function-pointer variable, which Swift 6 sees as shared mutable state.
static inline void ds_xml_free(void *pointer) { xmlFree(pointer); }

// A few libxml2 paths (e.g. xmlParseChunk's "encoder error") print through the variadic generic error handler,
// which Swift cannot implement: discard those lines while a reader runs (the structured handler records the
// error itself), then put back what the thread had.
static inline void ds_xml_discard_generic_error(void *context, const char *message, ...) {
    (void)context;
    (void)message;
}

typedef struct {
    xmlGenericErrorFunc handler;
    void *context;
} ds_xml_generic_error_state;

static inline ds_xml_generic_error_state ds_xml_discard_generic_errors(void) {
    ds_xml_generic_error_state saved = {xmlGenericError, xmlGenericErrorContext};
    xmlSetGenericErrorFunc(NULL, ds_xml_discard_generic_error);
    return saved;
}

static inline void ds_xml_restore_generic_errors(ds_xml_generic_error_state saved) {
    xmlSetGenericErrorFunc(saved.context, saved.handler);
}
