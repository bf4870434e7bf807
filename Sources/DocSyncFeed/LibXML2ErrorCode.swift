#if canImport(Glibc)
    import Glibc
#endif

/// libxml2 `xmlParserErrors` values the parser classifies (numbers from libxml2's xmlerror.h, stable ABI).
enum LibXML2ErrorCode {
    /// Errors libxml2 raises when the input stops inside a construct. Reported at the end of the input, after the
    /// root element began, they mean the document was cut short: XML_ERR_DOCUMENT_END (5, raised when the input
    /// ends before the root element does), XML_ERR_ENTITYREF_SEMICOL_MISSING (23),
    /// XML_ERR_ENTITY_NOT_FINISHED (37), XML_ERR_ATTRIBUTE_NOT_FINISHED (40), XML_ERR_ATTRIBUTE_WITHOUT_VALUE (41),
    /// XML_ERR_LITERAL_NOT_FINISHED (44), XML_ERR_COMMENT_NOT_FINISHED (45), XML_ERR_PI_NOT_FINISHED (47),
    /// XML_ERR_CDATA_NOT_FINISHED (63), XML_ERR_NAME_REQUIRED (68), XML_ERR_GT_REQUIRED (73),
    /// XML_ERR_LTSLASH_REQUIRED (74), XML_ERR_TAG_NOT_FINISHED (77).
    static let prematureEnd: Set<Int32> = [5, 23, 37, 40, 41, 44, 45, 47, 63, 68, 73, 74, 77]
}

extension FeedError {
    static func text(ofErrno number: Int32) -> String { String(cString: strerror(number)) }
}
