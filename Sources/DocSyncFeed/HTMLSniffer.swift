/// Tells an HTML page (a soft 404, a captive portal, a login page) from a feed by its first markup: `<!DOCTYPE
/// html` or an `<html>` root, after an optional BOM, XML declaration, comments and whitespace. Pure.
enum HTMLSniffer {
    static func isHTML(_ bytes: some Collection<UInt8>) -> Bool {
        var text = Array(bytes.prefix(4096))
        if text.starts(with: [0xEF, 0xBB, 0xBF]) { text.removeFirst(3) }
        var index = 0
        while index < text.count {
            let byte = text[index]
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
                index += 1
                continue
            }
            let rest = text[index...]
            if rest.starts(with: Array("<?".utf8)) || rest.starts(with: Array("<!--".utf8)) {
                let closer = Array((rest.starts(with: Array("<?".utf8)) ? "?>" : "-->").utf8)
                guard let end = find(closer, in: text, from: index + 2) else { return false }
                index = end + closer.count
                continue
            }
            let lower = rest.prefix(15).map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }
            for opening in ["<!doctype html", "<html"] where lower.starts(with: Array(opening.utf8)) {
                let after = lower.count > opening.utf8.count ? lower[opening.utf8.count] : 0x3E
                if after == 0x20 || after == 0x3E || after == 0x0A || after == 0x0D || after == 0x09 || after == 0x2F {
                    return true
                }
            }
            return false
        }
        return false
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard haystack.count >= needle.count, start <= haystack.count - needle.count else { return nil }
        return (start...(haystack.count - needle.count)).first { haystack[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}
