import Hummingbird
import NIOCore

/// `/_/opensearch.xml`: the search page as a browser search engine (OpenSearch 1.1, as DevDocs offers one): a
/// search for `{searchTerms}` opens `/?q=…`, where `kw:text` scopes as on the command line, and suggestions-free.
/// The template is absolute, built from the request's `Host` when it is a plain host name or address with an
/// optional port; any other `Host` (untrusted input) gives a relative template instead of echoing it.
package enum OpenSearchDescription {
    /// The description for a page reached at `authority` (the request's `Host`; nil or odd: a relative template).
    package static func xml(authority: String?) -> String {
        let base = authority.flatMap { isPlainAuthority($0) ? "http://\($0)" : nil } ?? ""
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <OpenSearchDescription xmlns="http://a9.com/-/spec/opensearch/1.1/">
            <ShortName>docsync</ShortName>
            <Description>Search the docsets served by docsync (kw:text for one keyword)</Description>
            <InputEncoding>UTF-8</InputEncoding>
            <Url type="text/html" method="get" template="\(base)/?q={searchTerms}"/>
            <Url type="application/opensearchdescription+xml" rel="self" template="\(base)/_/opensearch.xml"/>
            </OpenSearchDescription>

            """
    }

    /// Letters, digits, `.`, `-`, `:` and brackets (an IPv6 literal), at most 255 bytes.
    static func isPlainAuthority(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 255
            && text.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: ":"),
                    UInt8(ascii: "["), UInt8(ascii: "]"):
                    true
                default: false
                }
            }
    }

    static func response(authority: String?) -> Response {
        var response = Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: xml(authority: authority))))
        response.headers[.contentType] = "application/opensearchdescription+xml; charset=utf-8"
        response.headers[.cacheControl] = "no-cache"
        return response
    }
}
