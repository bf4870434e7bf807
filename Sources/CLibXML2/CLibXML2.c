#include "CLibXML2.h"

#include <CLazyLibrary.h>

// Every libxml2 symbol docsync uses: X(return type, name, parameter types). `xmlFree` is a variable (a function
// pointer: LIBXML_THREAD_ALLOC_ENABLED is off), the others functions.
#define DS_XML_FUNCTIONS(X)                                                                                        \
    X(void, xmlInitParser, (void))                                                                                 \
    X(xmlTextReaderPtr, xmlReaderForIO,                                                                            \
      (xmlInputReadCallback, xmlInputCloseCallback, void *, const char *, const char *, int))                      \
    X(void, xmlFreeTextReader, (xmlTextReaderPtr))                                                                 \
    X(void, xmlTextReaderSetStructuredErrorHandler, (xmlTextReaderPtr, xmlStructuredErrorFunc, void *))           \
    X(int, xmlTextReaderRead, (xmlTextReaderPtr))                                                                  \
    X(int, xmlTextReaderNodeType, (xmlTextReaderPtr))                                                              \
    X(int, xmlTextReaderDepth, (xmlTextReaderPtr))                                                                 \
    X(const xmlChar *, xmlTextReaderConstLocalName, (xmlTextReaderPtr))                                            \
    X(const xmlChar *, xmlTextReaderConstNamespaceUri, (xmlTextReaderPtr))                                         \
    X(const xmlChar *, xmlTextReaderConstValue, (xmlTextReaderPtr))                                                \
    X(int, xmlTextReaderIsEmptyElement, (xmlTextReaderPtr))                                                        \
    X(xmlNodePtr, xmlTextReaderCurrentNode, (xmlTextReaderPtr))                                                    \
    X(long, xmlGetLineNo, (const xmlNode *))                                                                       \
    X(int, xmlTextReaderGetParserLineNumber, (xmlTextReaderPtr))                                                   \
    X(xmlChar *, xmlTextReaderGetAttribute, (xmlTextReaderPtr, const xmlChar *))                                   \
    X(xmlChar *, xmlTextReaderGetAttributeNs, (xmlTextReaderPtr, const xmlChar *, const xmlChar *))               \
    X(xmlChar *, xmlTextReaderBaseUri, (xmlTextReaderPtr))                                                         \
    X(xmlChar *, xmlBuildURI, (const xmlChar *, const xmlChar *))                                                  \
    X(htmlParserCtxtPtr, htmlCreatePushParserCtxt,                                                                 \
      (htmlSAXHandlerPtr, void *, const char *, int, const char *, xmlCharEncoding))                               \
    X(void, htmlFreeParserCtxt, (htmlParserCtxtPtr))                                                               \
    X(int, htmlCtxtUseOptions, (htmlParserCtxtPtr, int))                                                           \
    X(int, htmlParseChunk, (htmlParserCtxtPtr, const char *, int, int))                                            \
    X(void, xmlStopParser, (xmlParserCtxtPtr))                                                                     \
    X(xmlStructuredErrorFunc *, __xmlStructuredError, (void))                                                      \
    X(void **, __xmlStructuredErrorContext, (void))                                                                \
    X(void, xmlSetStructuredErrorFunc, (void *, xmlStructuredErrorFunc))                                           \
    X(xmlGenericErrorFunc *, __xmlGenericError, (void))                                                            \
    X(void **, __xmlGenericErrorContext, (void))                                                                   \
    X(void, xmlSetGenericErrorFunc, (void *, xmlGenericErrorFunc))                                                 \
    X(void, xmlFree, (void *))

#define DS_XML_INDEX(type, name, parameters) ds_xml_index_##name,
enum { DS_XML_FUNCTIONS(DS_XML_INDEX) ds_xml_count };
#define DS_XML_NAME(type, name, parameters) #name,
static const char *const ds_xml_names[ds_xml_count] = {DS_XML_FUNCTIONS(DS_XML_NAME)};
static void *ds_xml_slots[ds_xml_count];

static const char *ds_xml_init_parser(void);
static struct ds_lazy_library ds_xml_library =
    DS_LAZY_LIBRARY_INIT(DS_XML_SONAME, ds_xml_names, ds_xml_slots, ds_xml_count, ds_xml_init_parser);

/// libxml2's function `name`, of its type, once loaded.
#define DS_XML(name) ((ds_xml_type_##name)ds_xml_slots[ds_xml_index_##name])
#define DS_XML_TYPE(type, name, parameters) typedef type(*ds_xml_type_##name) parameters;
DS_XML_FUNCTIONS(DS_XML_TYPE)

/// libxml2 2.9 wants `xmlInitParser` once before threads parse concurrently.
static const char *ds_xml_init_parser(void) {
    DS_XML(xmlInitParser)();
    return NULL;
}

const char *ds_xml_load(const char **missing) { return ds_lazy_library_load(&ds_xml_library, missing); }

const char *ds_xml_probe(const char *soname, char *buffer, size_t size, const char **missing) {
    return ds_lazy_library_probe(soname, ds_xml_names, ds_xml_count, buffer, size, missing);
}

/// A wrapper returning libxml2's result: `return` after the guard.
#define DS_XML_CALL(name, arguments)                  \
    ds_lazy_library_require(&ds_xml_library);         \
    return DS_XML(name) arguments

xmlTextReaderPtr ds_xmlReaderForIO(xmlInputReadCallback ioread, xmlInputCloseCallback ioclose, void *ioctx,
                                   const char *URL, const char *encoding, int options) {
    DS_XML_CALL(xmlReaderForIO, (ioread, ioclose, ioctx, URL, encoding, options));
}

void ds_xmlFreeTextReader(xmlTextReaderPtr reader) {
    ds_lazy_library_require(&ds_xml_library);
    DS_XML(xmlFreeTextReader)(reader);
}

void ds_xmlTextReaderSetStructuredErrorHandler(xmlTextReaderPtr reader, xmlStructuredErrorFunc f, void *arg) {
    ds_lazy_library_require(&ds_xml_library);
    DS_XML(xmlTextReaderSetStructuredErrorHandler)(reader, f, arg);
}

int ds_xmlTextReaderRead(xmlTextReaderPtr reader) { DS_XML_CALL(xmlTextReaderRead, (reader)); }

int ds_xmlTextReaderNodeType(xmlTextReaderPtr reader) { DS_XML_CALL(xmlTextReaderNodeType, (reader)); }

int ds_xmlTextReaderDepth(xmlTextReaderPtr reader) { DS_XML_CALL(xmlTextReaderDepth, (reader)); }

const xmlChar *ds_xmlTextReaderConstLocalName(xmlTextReaderPtr reader) {
    DS_XML_CALL(xmlTextReaderConstLocalName, (reader));
}

const xmlChar *ds_xmlTextReaderConstNamespaceUri(xmlTextReaderPtr reader) {
    DS_XML_CALL(xmlTextReaderConstNamespaceUri, (reader));
}

const xmlChar *ds_xmlTextReaderConstValue(xmlTextReaderPtr reader) { DS_XML_CALL(xmlTextReaderConstValue, (reader)); }

int ds_xmlTextReaderIsEmptyElement(xmlTextReaderPtr reader) { DS_XML_CALL(xmlTextReaderIsEmptyElement, (reader)); }

xmlNodePtr ds_xmlTextReaderCurrentNode(xmlTextReaderPtr reader) { DS_XML_CALL(xmlTextReaderCurrentNode, (reader)); }

long ds_xmlGetLineNo(const xmlNode *node) { DS_XML_CALL(xmlGetLineNo, (node)); }

int ds_xmlTextReaderGetParserLineNumber(xmlTextReaderPtr reader) {
    DS_XML_CALL(xmlTextReaderGetParserLineNumber, (reader));
}

xmlChar *ds_xmlTextReaderGetAttribute(xmlTextReaderPtr reader, const xmlChar *name) {
    DS_XML_CALL(xmlTextReaderGetAttribute, (reader, name));
}

xmlChar *ds_xmlTextReaderGetAttributeNs(xmlTextReaderPtr reader, const xmlChar *localName,
                                        const xmlChar *namespaceURI) {
    DS_XML_CALL(xmlTextReaderGetAttributeNs, (reader, localName, namespaceURI));
}

xmlChar *ds_xmlTextReaderBaseUri(xmlTextReaderPtr reader) { DS_XML_CALL(xmlTextReaderBaseUri, (reader)); }

xmlChar *ds_xmlBuildURI(const xmlChar *URI, const xmlChar *base) { DS_XML_CALL(xmlBuildURI, (URI, base)); }

htmlParserCtxtPtr ds_htmlCreatePushParserCtxt(htmlSAXHandlerPtr sax, void *user_data, const char *chunk, int size,
                                              const char *filename, xmlCharEncoding enc) {
    DS_XML_CALL(htmlCreatePushParserCtxt, (sax, user_data, chunk, size, filename, enc));
}

void ds_htmlFreeParserCtxt(htmlParserCtxtPtr ctxt) {
    ds_lazy_library_require(&ds_xml_library);
    DS_XML(htmlFreeParserCtxt)(ctxt);
}

int ds_htmlCtxtUseOptions(htmlParserCtxtPtr ctxt, int options) { DS_XML_CALL(htmlCtxtUseOptions, (ctxt, options)); }

int ds_htmlParseChunk(htmlParserCtxtPtr ctxt, const char *chunk, int size, int terminate) {
    DS_XML_CALL(htmlParseChunk, (ctxt, chunk, size, terminate));
}

void ds_xmlStopParser(xmlParserCtxtPtr ctxt) {
    ds_lazy_library_require(&ds_xml_library);
    DS_XML(xmlStopParser)(ctxt);
}

xmlStructuredErrorFunc *ds___xmlStructuredError(void) { DS_XML_CALL(__xmlStructuredError, ()); }

void **ds___xmlStructuredErrorContext(void) { DS_XML_CALL(__xmlStructuredErrorContext, ()); }

void ds_xmlSetStructuredErrorFunc(void *ctx, xmlStructuredErrorFunc handler) {
    ds_lazy_library_require(&ds_xml_library);
    DS_XML(xmlSetStructuredErrorFunc)(ctx, handler);
}

void ds_xml_free(void *pointer) {
    ds_lazy_library_require(&ds_xml_library);
    // The slot holds the variable's address: the deallocator libxml2 was set up with.
    (*(xmlFreeFunc *)ds_xml_slots[ds_xml_index_xmlFree])(pointer);
}

/// Discards a generic error line (the structured handler has recorded the error).
static void ds_xml_discard_generic_error(void *context, const char *message, ...) {
    (void)context;
    (void)message;
}

ds_xml_generic_error_state ds_xml_discard_generic_errors(void) {
    ds_lazy_library_require(&ds_xml_library);
    ds_xml_generic_error_state saved = {*DS_XML(__xmlGenericError)(), *DS_XML(__xmlGenericErrorContext)()};
    DS_XML(xmlSetGenericErrorFunc)(NULL, ds_xml_discard_generic_error);
    return saved;
}

void ds_xml_restore_generic_errors(ds_xml_generic_error_state saved) {
    ds_lazy_library_require(&ds_xml_library);
    DS_XML(xmlSetGenericErrorFunc)(saved.context, saved.handler);
}
