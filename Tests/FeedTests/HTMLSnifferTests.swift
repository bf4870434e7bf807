import Testing

@testable import DocSyncFeed

/// An HTML page where a feed was expected is named as such, not reported as a libxml2 tag mismatch.
@Suite(.timeLimit(.minutes(5)))
struct HTMLSnifferTests {
    @Test(arguments: [
        ("<!DOCTYPE html><html><body>Not found<br></body></html>", true),
        ("\u{FEFF}\n  <html lang=\"en\"><head><title>Login</title>", true),
        ("<?xml version=\"1.0\"?>\n<!-- portal -->\n<HTML>\n<body>", true),
        ("<html xmlns=\"http://www.w3.org/1999/xhtml\">", true),
        ("<?xml version=\"1.0\"?><feed xmlns=\"http://www.w3.org/2005/Atom\">", false),
        ("<entry><version>1</version></entry>", false),
        ("<htmlfeed/>", false),
        ("", false),
    ])
    func htmlIsToldFromFeeds(text: String, isHTML: Bool) {
        #expect(HTMLSniffer.isHTML(Array(text.utf8)) == isHTML)
    }

    @Test func parsingAnHTMLPageSaysSo() {
        let page = Array("<!DOCTYPE html>\n<html><body><p>Welcome<br><p>Please log in</body></html>\n".utf8)
        #expect(throws: FeedError(feed: "http://x/f.atom", reason: .htmlPage)) {
            try FeedParser.parse(bytes: page, documentURL: "http://x/f.atom")
        }
        #expect(
            FeedError(feed: "u", reason: .htmlPage).description == "u: an HTML page, not a feed (a wrong URL, a login "
                + "or captive portal page?): expected Atom or Dash XML")
    }
}
