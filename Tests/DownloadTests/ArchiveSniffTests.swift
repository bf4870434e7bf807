import DocSyncDownload
import Testing

/// The first bytes of an archive download, whatever its Content-Type: archive magics, markup, or undecided.
@Suite(.timeLimit(.minutes(5))) struct ArchiveSniffTests {
    @Test(arguments: [
        ([0x1F, 0x8B, 0x08, 0x00], ArchiveSniff.Kind.archive("gzip")),
        (Array("BZh91AY".utf8), .archive("bzip2")),
        ([0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00, 0x00], .archive("xz")),
        ([0x28, 0xB5, 0x2F, 0xFD, 0x24], .archive("zstd")),
        ([0x50, 0x4B, 0x03, 0x04, 0x14], .archive("zip")),
        (Array("xar!\u{0}\u{1c}".utf8), .archive("xar")),
        (Array("<!DOCTYPE html><html>".utf8), .page),
        (Array("<html><body>404".utf8), .page),
        (Array("\n\r\t  <head>".utf8), .page),
        ([0xEF, 0xBB, 0xBF] + Array("<?xml version=\"1.0\"?>".utf8), .page),
        (Array("Go.docset/\u{0}\u{0}\u{0}".utf8), .unknown),  // a plain tar's first member name
        (Array("   \n".utf8), .unknown),
        ([], .unknown),
        ([0x1F], .unknown),  // too short for a magic, not markup
        (Array("Not Found".utf8), .unknown),
    ] as [([UInt8], ArchiveSniff.Kind)])
    func classify(bytes: [UInt8], expected: ArchiveSniff.Kind) {
        #expect(ArchiveSniff.classify(bytes) == expected)
    }
}
