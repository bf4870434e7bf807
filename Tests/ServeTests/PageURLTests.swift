import DocSync
import Foundation
import Testing

@testable import DocSyncServe

/// `Routes.pageURL`: a hit's `file://` URL becomes the path under `/d/<Name>/` that serves its page (fragment and
/// query kept), from the documents folder or, for Apple's layout, from `Contents/Resources/`; other URLs unchanged.
@Suite(.timeLimit(.minutes(5))) struct PageURLTests {
    static func hit(docset: String, url: String) throws -> SearchHit {
        let object: [String: Any] = [
            "name": "n", "type": "Function", "docset": docset, "version": "1", "url": url, "match": 0, "page": "p",
            "rawType": "func",
        ]
        return try JSONDecoder().decode(SearchHit.self, from: JSONSerialization.data(withJSONObject: object))
    }

    @Test(arguments: [
        ("A", "file:///r/A@1/Contents/Resources/Documents/api/p%201.html#frag", "/d/A/api/p%201.html#frag"),
        ("A", "file:///r/A@1/Contents/Resources/Documentation/p.html", "/d/A/Documentation/p.html"),
        ("A", "file:///r/A@1/Contents/Resources/Documents/Contents/Resources/Documents/x.html",
         "/d/A/Contents/Resources/Documents/x.html"),
        ("A b", "file:///r/Contents/Resources/Documents/x.html", "/d/A%20b/x.html"),
        ("A", "file:///r/A@1/elsewhere/x.html", "/d/A/"),
        ("A", "https://example.com/Contents/Resources/Documents/x.html",
         "https://example.com/Contents/Resources/Documents/x.html"),
    ])
    func pagePaths(docset: String, url: String, expected: String) throws {
        let hit = try Self.hit(docset: docset, url: url)
        #expect(Routes.pageURL(docset: hit.docset, url: hit.url.absoluteString) == expected)
        var out = ""
        Routes.appendHitJSON(hit, to: &out)
        let object = try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: String]
        #expect(object?["page_url"] == expected)
        #expect(object?["url"] == hit.url.absoluteString)
        // A hit carries its page and raw type as `entries` does (no fragment key when the URL has none).
        let keys = ["docset", "match", "name", "page", "page_url", "raw_type", "type", "url", "version"]
        #expect(object.map { Array($0.keys).sorted() } == keys)
    }

    @Test func theMarkerSearchFindsTheFirstOccurrenceOrNone() {
        let marker = Array("/ab/".utf8)
        let cases: [(String, Int?)] = [
            ("x/ab/y/ab/", 5), ("/ab/", 4), ("/a/ab", nil), ("", nil), ("/ab", nil), ("//ab/", 5),
        ]
        for (text, expected) in cases {
            let bytes = Array(text.utf8)
            #expect(bytes.withUnsafeBufferPointer { Routes.end(of: marker, in: $0) } == expected, "\(text)")
        }
    }
}
