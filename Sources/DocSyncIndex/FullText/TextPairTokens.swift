import GRDB

#if canImport(Glibc)
    import Glibc
#endif

/// The `pairs` tokens of pages (`FullTextPairs`), computed from their text's UTF-8 bytes where the pages are parsed
/// (`FullTextIndexing`'s parsing thread), not on the thread SQLite writes on. Words are `text`'s own: a run of ASCII
/// letters and digits is a word, lowercased (what `unicode61` does with ASCII: every other ASCII character separates
/// words), and a run holding any other byte (between ASCII separators) is read by SQLite's `unicode61
/// remove_diacritics 2` tokenizer itself, on an in-memory connection of this reader's own; no `String` is made per
/// word of the fast path, and the common words are found through a table of their bytes' hashes.
///
/// Not thread-safe: one per thread.
package final class TextPairTokens {
    /// The common and universal words (`FullTextPairs.words`), once ``choose(_:)`` has chosen them.
    package private(set) var words: (common: Set<String>, universal: [String]) = ([], [])
    private let queue: DatabaseQueue
    private var tokenizer: (any FTS5Tokenizer)?
    /// The common words' bytes, by id (sorted), and where each is among the universal words (-1: not universal).
    private var common: [[UInt8]] = []
    private var universalIndex: [Int] = []
    private var table = WordTable()
    private var seen = Set<UInt64>()
    /// A word's bytes, reused.
    private var word: [UInt8] = []

    package init() throws(DocsetIndexError) {
        do {
            queue = try DatabaseQueue()
        } catch {
            throw .io("", "cannot open an in-memory SQLite connection for the text index's tokenizer: \(error)")
        }
    }

    /// Chooses the common and universal words from `pages` (the first pages of an index: each page counted once per
    /// word).
    package func choose(_ pages: [(title: String, body: String)]) throws(DocsetIndexError) {
        var counts: [String: Int] = [:]
        var page = Set<String>()
        for (title, body) in pages {
            page.removeAll(keepingCapacity: true)
            for text in [title, body] { try eachWord(text) { page.insert(String(decoding: $0, as: UTF8.self)) } }
            for word in page { counts[word, default: 0] += 1 }
        }
        use(FullTextPairs.words(counts: counts, pages: pages.count))
    }

    /// Uses `words` (chosen before, as ``choose(_:)`` does).
    package func use(_ words: (common: Set<String>, universal: [String])) {
        self.words = words
        let sorted = words.common.union(words.universal).sorted()
        common = sorted.map { Array($0.utf8) }
        let universal = Dictionary(uniqueKeysWithValues: words.universal.enumerated().map { ($1, $0) })
        universalIndex = sorted.map { universal[$0] ?? -1 }
        table = WordTable(common)
    }

    /// Every word of `text`, as `text`'s tokenizer reads it.
    package func words(of text: String) throws(DocsetIndexError) -> [String] {
        var out: [String] = []
        try eachWord(text) { out.append(String(decoding: $0, as: UTF8.self)) }
        return out
    }

    /// One page's tokens for the `pairs` table, as `FullTextPairs.tokens` makes them from the page's words.
    package func tokens(title: String, body: String) throws(DocsetIndexError) -> String {
        // Locals, not properties, in the loop (no exclusivity checks per word).
        let table = self.table
        let common = self.common
        let universalIndex = self.universalIndex
        var seen = Set<UInt64>()
        swap(&seen, &self.seen)
        defer { swap(&seen, &self.seen) }
        seen.removeAll(keepingCapacity: true)
        var out: [UInt8] = []
        out.reserveCapacity(body.utf8.count)
        var present: UInt64 = 0
        for text in [title, body] {
            var previous = -1
            try eachWord(text) { word in
                let id = table.find(word)
                if id >= 0 {
                    let universal = universalIndex[id]
                    if universal >= 0 { present |= 1 << UInt64(universal) }
                    if previous >= 0, seen.insert(UInt64(previous) << 32 | UInt64(id)).inserted {
                        if !out.isEmpty { out.append(0x20) }
                        out.append(contentsOf: common[previous])
                        out.append(0x5F)
                        out.append(contentsOf: common[id])
                    }
                }
                previous = id
            }
        }
        for (index, word) in words.universal.enumerated() where present & (1 << UInt64(index)) == 0 {
            if !out.isEmpty { out.append(0x20) }
            out.append(0x5F)
            out.append(contentsOf: word.utf8)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Calls `visit` with each word of `text` (lowercased UTF-8, as `unicode61 remove_diacritics 2` makes it).
    private func eachWord(_ text: String, _ visit: (UnsafeBufferPointer<UInt8>) -> Void) throws(DocsetIndexError) {
        var text = text
        var failure: DocsetIndexError?
        var word: [UInt8] = []
        swap(&word, &self.word)
        defer { swap(&word, &self.word) }
        text.withUTF8 { bytes in
            var index = 0
            var start = 0
            word.removeAll(keepingCapacity: true)
            while index < bytes.count {
                let byte = bytes[index]
                if byte >= 0x80 {
                    // A run with other characters: SQLite's tokenizer reads it, up to the next ASCII separator.
                    var end = index
                    while end < bytes.count, bytes[end] >= 0x80 || Self.isWordByte(bytes[end]) { end += 1 }
                    let run = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
                    do throws(DocsetIndexError) {
                        for token in try slowWords(run) {
                            var token = token
                            token.withUTF8 { visit($0) }
                        }
                    } catch {
                        failure = error
                        return
                    }
                    word.removeAll(keepingCapacity: true)
                    index = end
                    start = end
                } else if Self.isWordByte(byte) {
                    if word.isEmpty { start = index }
                    word.append(byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte)
                    index += 1
                } else {
                    if !word.isEmpty {
                        word.withUnsafeBufferPointer { visit($0) }
                        word.removeAll(keepingCapacity: true)
                    }
                    index += 1
                    start = index
                }
            }
            if !word.isEmpty { word.withUnsafeBufferPointer { visit($0) } }
        }
        if let failure { throw failure }
    }

    /// The words of a run holding non-ASCII characters, by SQLite's own tokenizer.
    private func slowWords(_ run: String) throws(DocsetIndexError) -> [String] {
        do {
            return try queue.inDatabase { db in
                if tokenizer == nil { tokenizer = try db.makeTokenizer(FullTextWriter.tokenizer) }
                return try tokenizer?.tokenize(document: run).map(\.token) ?? []
            }
        } catch {
            throw .io("", "text index tokens: \(error)")
        }
    }

    /// ASCII letters and digits: what `unicode61` keeps of ASCII.
    private static func isWordByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }
}

/// An open-addressing table from words' bytes to their ids (FNV-1a hashes, the bytes compared on a hit).
private struct WordTable {
    private var slots: [Int32] = []
    private var hashes: [UInt64] = []
    /// The words' bytes, end to end, and where each starts (`starts[id]..<starts[id + 1]`).
    private var bytes: [UInt8] = []
    private var starts: [Int] = [0]
    private var mask = 0

    init() {}

    init(_ words: [[UInt8]]) {
        var size = 16
        while size < words.count * 4 { size <<= 1 }
        slots = Array(repeating: -1, count: size)
        hashes = Array(repeating: 0, count: size)
        mask = size - 1
        for (id, word) in words.enumerated() {
            bytes += word
            starts.append(bytes.count)
            let hash = word.withUnsafeBufferPointer { Self.hash($0) }
            var slot = Int(truncatingIfNeeded: hash) & mask
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(id)
            hashes[slot] = hash
        }
    }

    /// The id of `word`, or -1.
    func find(_ word: UnsafeBufferPointer<UInt8>) -> Int {
        guard !slots.isEmpty else { return -1 }
        let hash = Self.hash(word)
        return slots.withUnsafeBufferPointer { slots in
            hashes.withUnsafeBufferPointer { hashes in
                var slot = Int(truncatingIfNeeded: hash) & mask
                while slots[slot] >= 0 {
                    if hashes[slot] == hash {
                        let id = Int(slots[slot])
                        let start = starts[id]
                        let count = starts[id + 1] - start
                        if count == word.count {
                            let same = bytes.withUnsafeBufferPointer { all in
                                count == 0 || memcmp(all.baseAddress! + start, word.baseAddress!, count) == 0
                            }
                            if same { return id }
                        }
                    }
                    slot = (slot + 1) & mask
                }
                return -1
            }
        }
    }

    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return hash
    }
}
