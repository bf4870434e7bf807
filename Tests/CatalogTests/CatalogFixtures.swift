import Foundation

/// Catalogues in each format, made here (docsync never ships anyone's catalogue).
enum CatalogFixtures {
    /// A 1×1 PNG, base64 (what Zeal's catalogue carries in `icon` / `icon2x`).
    static let pngBase64 =
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="

    static let zeal = """
        [
          {"name": "Python_3", "title": "Python 3", "sourceId": "com.kapeli.dash", "revision": "0",
           "versions": ["3.12.1", ".11.4", "3.10.2"], "icon": "\(pngBase64)", "icon2x": "\(pngBase64)",
           "extra": {"indexFilePath": "index.html", "keywords": ["py"]}, "aliases": ["py3", "python"],
           "size": 1234, "tarix": true,
           "urls": ["http://mirror.example/Python_3.tgz", "file:///etc/passwd", "ftp://x/y.tgz"]},
          {"name": "C++", "title": "C++", "sourceId": "com.kapeli.dash", "revision": 2, "versions": ["20"],
           "tarix": false},
          {"name": "JavaScript", "title": "JavaScript", "revision": "1", "versions": []},
          {"title": "no name"},
          {"name": "Vim", "title": "Vim", "sourceId": "com.kapeli.cheatsheet", "revision": "0", "versions": ["1"]}
        ]
        """

    static let contrib = """
        {"docsets": {
          "Jest": {"name": "Jest", "version": "29.7", "archive": "Jest.tgz",
                   "author": {"name": "A. Author", "link": "https://example.org"}, "aliases": ["jestjs"],
                   "specific_versions": [{"version": "29.7", "archive": "Jest.tgz"},
                                         {"version": "27.0", "archive": "Jest-27.tgz"}],
                   "icon": "\(pngBase64)", "icon@2x": "\(pngBase64)"},
          "NoArchive": {"name": "Broken", "version": "1"}
        }}
        """

    static let cheatsheets = """
        {"cheatsheets": {
          "ASCII_Tables": {"name": "ASCII Tables", "version": "3", "aliases": ["ascii",],},
          "Vim": {"name": "Vim", "version": "12",},
        },}
        """

    /// A Kapeli feed with `other-versions`, one of them `.`-prefixed.
    static let kapeliFeed = """
        <entry>
          <version>3.12.1/2</version>
          <url>http://sanfrancisco.kapeli.com/feeds/Python_3.tgz</url>
          <url>http://london.kapeli.com/feeds/Python_3.tgz</url>
          <other-versions>
            <version><name>3.12.1</name></version>
            <version><name>.9.6</name></version>
            <version><name>2.7</name></version>
          </other-versions>
        </entry>
        """

    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
}
