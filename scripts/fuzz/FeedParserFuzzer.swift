// libFuzzer target for the feed parser: every input is parsed as a feed published at a fixed URL. Any crash,
// sanitizer report, leak or broken invariant below is a finding. Built and run by scripts/fuzz-feed.
import DocSyncFeed

@_cdecl("LLVMFuzzerTestOneInput")
public func feedParserFuzzTarget(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: data, count: size))
    let limits = FeedLimits(maxBytes: 1 << 20, maxDepth: 64)
    do {
        let document = try FeedParser.parse(
            bytes: bytes, documentURL: "https://fuzz.example/feeds/Fuzz.xml", limits: limits)
        check(document)
    } catch {
        precondition(error.feed == "https://fuzz.example/feeds/Fuzz.xml", "an error names another feed")
        _ = error.description
    }
    return 0
}

/// Invariants every parsed document keeps.
private func check(_ document: FeedDocument) {
    for entry in document.entries {
        if let sha256 = entry.sha256 {
            precondition(sha256.utf8.count == 64 && sha256.utf8.allSatisfy { "0123456789abcdef".utf8.contains($0) })
        }
        if let updated = entry.updated { precondition(FeedDate.format(updated).utf8.count >= 20) }
        switch document.format {
        case .atom:
            let enclosures = entry.links.filter { $0.rel == "enclosure" }.map(\.href)
            precondition(entry.archives.map(\.url) == enclosures, "archives are exactly the enclosure links")
            precondition(entry.links.allSatisfy { !$0.rel.isEmpty }, "a link without rel is alternate")
        case .dash:
            precondition(document.entries.count == 1 && !entry.archives.isEmpty, "a Dash feed has its mirrors")
            precondition(entry.identifier == "Fuzz", "a Dash docset is named after the feed")
        }
    }
}
