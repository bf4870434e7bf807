// libxml2's xmlversion.h turns on LIBXML_ICU_ENABLED, which makes encoding.h include the system ICU headers; their
// `UErrorCode` then clashes with Foundation's bundled ICU in any Swift module that also sees Foundation. docsync
// never touches the ICU-only fields (of xmlCharEncodingHandler), so hide them.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/xmlreader.h>
#include <libxml/parser.h>
#include <libxml/uri.h>
#include <libxml/xmlerror.h>
#include <libxml/globals.h>

// `xmlFree` is a global function-pointer variable, which Swift 6 sees as shared mutable state.
static inline void ds_xml_free(void *pointer) { xmlFree(pointer); }
