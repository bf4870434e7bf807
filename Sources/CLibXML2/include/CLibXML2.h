// libxml2, loaded on first use (CLazyLibrary): docsync does not link it, so the commands that never read a feed or a
// page's text do not pay for loading it and what it pulls in (ICU, liblzma) at start-up. Its headers supply the
// types and constants; Swift calls these wrappers (`ds_` and libxml2's name), never libxml2's own functions (a
// direct call would not link). Call `ds_xml_load` first: the other wrappers stop the process when libxml2 is not
// loaded. The headers live in /usr/include/libxml2, which Package.swift passes as `-I` (no pkg-config: its `-lxml2`
// would put the library back on the link line).
#ifndef DOCSYNC_CLIBXML2_H
#define DOCSYNC_CLIBXML2_H

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

#include <stddef.h>

/// The soname docsync loads (the Debian package's Depends names its package).
#define DS_XML_SONAME "libxml2.so.2"

/// Loads libxml2 on the first call (thread-safe; later calls cost an atomic load) and runs xmlInitParser once.
/// NULL when loaded; else why not, naming the library, with the missing function in `*missing` (else NULL).
const char *ds_xml_load(const char **missing);

/// The same load of `soname` with libxml2's function list, into a library of its own closed afterwards (tests: a
/// library that is missing or lacks a function). NULL when it loads; else the reason, copied into `buffer`.
const char *ds_xml_probe(const char *soname, char *buffer, size_t size, const char **missing);

// The streaming reader (feeds).
xmlTextReaderPtr ds_xmlReaderForIO(xmlInputReadCallback ioread, xmlInputCloseCallback ioclose, void *ioctx,
                                   const char *URL, const char *encoding, int options);
void ds_xmlFreeTextReader(xmlTextReaderPtr reader);
void ds_xmlTextReaderSetStructuredErrorHandler(xmlTextReaderPtr reader, xmlStructuredErrorFunc f, void *arg);
int ds_xmlTextReaderRead(xmlTextReaderPtr reader);
int ds_xmlTextReaderNodeType(xmlTextReaderPtr reader);
int ds_xmlTextReaderDepth(xmlTextReaderPtr reader);
const xmlChar *ds_xmlTextReaderConstLocalName(xmlTextReaderPtr reader);
const xmlChar *ds_xmlTextReaderConstNamespaceUri(xmlTextReaderPtr reader);
const xmlChar *ds_xmlTextReaderConstValue(xmlTextReaderPtr reader);
int ds_xmlTextReaderIsEmptyElement(xmlTextReaderPtr reader);
xmlNodePtr ds_xmlTextReaderCurrentNode(xmlTextReaderPtr reader);
long ds_xmlGetLineNo(const xmlNode *node);
int ds_xmlTextReaderGetParserLineNumber(xmlTextReaderPtr reader);
xmlChar *ds_xmlTextReaderGetAttribute(xmlTextReaderPtr reader, const xmlChar *name);
xmlChar *ds_xmlTextReaderGetAttributeNs(xmlTextReaderPtr reader, const xmlChar *localName,
                                        const xmlChar *namespaceURI);
xmlChar *ds_xmlTextReaderBaseUri(xmlTextReaderPtr reader);
xmlChar *ds_xmlBuildURI(const xmlChar *URI, const xmlChar *base);

// The HTML push parser in SAX mode (pages' visible text).
htmlParserCtxtPtr ds_htmlCreatePushParserCtxt(htmlSAXHandlerPtr sax, void *user_data, const char *chunk, int size,
                                              const char *filename, xmlCharEncoding enc);
void ds_htmlFreeParserCtxt(htmlParserCtxtPtr ctxt);
int ds_htmlCtxtUseOptions(htmlParserCtxtPtr ctxt, int options);
int ds_htmlParseChunk(htmlParserCtxtPtr ctxt, const char *chunk, int size, int terminate);
void ds_xmlStopParser(xmlParserCtxtPtr ctxt);

// The thread's error handlers, and libxml2's deallocator.
xmlStructuredErrorFunc *ds___xmlStructuredError(void);
void **ds___xmlStructuredErrorContext(void);
void ds_xmlSetStructuredErrorFunc(void *ctx, xmlStructuredErrorFunc handler);

/// `xmlFree(pointer)`: libxml2's deallocator, for the strings its functions hand over.
void ds_xml_free(void *pointer);

/// The thread's generic error handler, as `ds_xml_discard_generic_errors` found it.
typedef struct {
    xmlGenericErrorFunc handler;
    void *context;
} ds_xml_generic_error_state;

/// A few libxml2 paths (e.g. xmlParseChunk's "encoder error") print through the variadic generic error handler,
/// which Swift cannot implement: discard those lines while a reader runs (the structured handler records the
/// error itself), then put back what the thread had.
ds_xml_generic_error_state ds_xml_discard_generic_errors(void);
void ds_xml_restore_generic_errors(ds_xml_generic_error_state saved);

#endif
