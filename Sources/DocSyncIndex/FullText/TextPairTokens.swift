import GRDB

#if canImport(Glibc)
    import Glibc
#endif

/// The `pairs` tokens of pages (`FullTextPairs`), computed from their text's UTF-8 bytes where the pages are parsed
/// (`FullTextIndexing`'s parsing thread), not on the thread SQLite writes on. Words are `text`'s own: a run of ASCII
/// letters and digits is a word, lowercased (what `unicode61` does with ASCII: every other ASCII character separates
/// words), and a run holding any other byte (between ASCII separators) is read by SQLite's `unicode61
/// remove_diacritics 2` tokenizer itself, on an in-memory connection of this reader's own. ``tokens(title:body:)``
/// reads an ASCII word in place, hashing it as it goes: no `String`, no copy, no reference counted per word; the
/// common words are found through a table of their bytes' hashes and each page's pairs kept once through a set
/// reused from page to page.
///
/// Not thread-safe: one per thread.
package final class TextPairTokens {
    /// The common and universal words (`FullTextPairs.words`), once ``choose(_:)`` has chosen them.
    package private(set) var words: (common: Set<String>, universal: [String]) = ([], [])
    private let queue: DatabaseQueue
    private var tokenizer: (any FTS5Tokenizer)?
    /// The common words (sorted, by id), where each is among the universal words, and their hashes.
    private var table = WordTable()
    /// The pairs of the page being read (each written once).
    private var seen = PairSet()
    /// The tokens of the page being read, reused.
    private var out: [UInt8] = []
    /// The most bytes of ``out`` kept from one page to the next.
    private static let keptBytes = 256 << 10
    /// A word's bytes, reused (``words(of:)``, ``choose(_:)``).
    private var word: [UInt8] = []

    package init() throws(DocsetIndexError) {
        do {
            queue = try DatabaseQueue()
        } catch {
            throw .io("", "cannot open an in-memory SQLite connection for the text index's tokenizer: \(error)")
        }
    }

    deinit {
        table.deallocate()
        seen.deallocate()
    }

    /// Chooses the common and universal words from `pages` (the first pages of an index: each page counted once per
    /// word) of a docset of `docsetPages` HTML pages (nil: not known; `FullTextPairs.commonShare(pages:)`).
    package func choose(_ pages: [(title: String, body: String)], docsetPages: Int? = nil) throws(DocsetIndexError) {
        var counts: [String: Int] = [:]
        var page = Set<String>()
        for (title, body) in pages {
            page.removeAll(keepingCapacity: true)
            for text in [title, body] { try eachWord(text) { page.insert(String(decoding: $0, as: UTF8.self)) } }
            for word in page { counts[word, default: 0] += 1 }
        }
        use(FullTextPairs.words(counts: counts, pages: pages.count, docsetPages: docsetPages))
    }

    /// Uses `words` (chosen before, as ``choose(_:)`` does).
    package func use(_ words: (common: Set<String>, universal: [String])) {
        self.words = words
        let sorted = words.common.union(words.universal).sorted()
        let universal = Dictionary(uniqueKeysWithValues: words.universal.enumerated().map { ($1, $0) })
        table.deallocate()
        table = WordTable(sorted.map { Array($0.utf8) }, universal: sorted.map { universal[$0] ?? -1 })
    }

    /// Every word of `text`, as `text`'s tokenizer reads it.
    package func words(of text: String) throws(DocsetIndexError) -> [String] {
        var out: [String] = []
        try eachWord(text) { out.append(String(decoding: $0, as: UTF8.self)) }
        return out
    }

    /// One page's tokens for the `pairs` table, as `FullTextPairs.tokens` makes them from the page's words.
    package func tokens(title: String, body: String) throws(DocsetIndexError) -> String {
        var out: [UInt8] = []
        swap(&out, &self.out)
        defer {
            // A large page's buffer is not kept for the next ones.
            if out.capacity <= Self.keptBytes { swap(&out, &self.out) }
        }
        out.removeAll(keepingCapacity: true)
        seen.clear()
        var present: UInt64 = 0
        try fieldTokens(title, into: &out, present: &present)
        try fieldTokens(body, into: &out, present: &present)
        for (index, word) in words.universal.enumerated() where present & (1 << UInt64(index)) == 0 {
            if !out.isEmpty { out.append(0x20) }
            out.append(0x5F)
            out.append(contentsOf: word.utf8)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the pairs of one field (the title, the body) to `out` and marks the universal words it holds.
    private func fieldTokens(_ text: String, into out: inout [UInt8], present: inout UInt64) throws(DocsetIndexError) {
        // Pointers in structs, copied into locals: nothing in the loop is reference counted.
        let table = self.table
        var seen = self.seen
        defer { self.seen = seen }
        var previous: Int32 = -1
        func visit(_ id: Int32) {
            if id >= 0 {
                let universal = table.universal[Int(id)]
                if universal >= 0 { present |= 1 << UInt64(universal) }
                if previous >= 0, seen.insert(UInt64(previous) << 32 | UInt64(id)) {
                    if !out.isEmpty { out.append(0x20) }
                    out.append(contentsOf: table.word(previous))
                    out.append(0x5F)
                    out.append(contentsOf: table.word(id))
                }
            }
            previous = id
        }
        var text = text
        var failure: DocsetIndexError?
        text.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return }
            let count = bytes.count
            var index = 0
            while index < count {
                guard Self.isRunByte(base[index]) else {
                    index += 1
                    continue
                }
                // A run of ASCII letters and digits (a word) or of those and other characters (SQLite reads it).
                let start = index
                var hash = WordTable.hashSeed
                var ascii = true
                repeat {
                    let byte = base[index]
                    if byte >= 0x80 { ascii = false }
                    hash = WordTable.hash(hash, byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte)
                    index += 1
                } while index < count && Self.isRunByte(base[index])
                let run = UnsafeBufferPointer(start: base + start, count: index - start)
                if ascii {
                    visit(table.find(run, hash: hash))
                    continue
                }
                do throws(DocsetIndexError) {
                    for token in try slowWords(String(decoding: run, as: UTF8.self)) {
                        var token = token
                        token.withUTF8 { visit(table.find($0, hash: WordTable.hash($0))) }
                    }
                } catch {
                    failure = error
                    return
                }
            }
        }
        if let failure { throw failure }
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

    /// A word's bytes or any non-ASCII byte: what a run between ASCII separators holds.
    private static func isRunByte(_ byte: UInt8) -> Bool { byte >= 0x80 || isWordByte(byte) }
}

/// An open-addressing table from words' bytes (lowercase) to their ids (FNV-1a hashes, the bytes compared on a hit,
/// ASCII letters lowercased), with each word's place among the universal words. Raw memory, freed by
/// ``deallocate()`` (its owner's): a copy is a few pointers, nothing reference counted where words are looked up.
private struct WordTable {
    static let hashSeed: UInt64 = 0xcbf2_9ce4_8422_2325
    private var slots = UnsafeMutableBufferPointer<Int32>(start: nil, count: 0)
    private var hashes = UnsafeMutableBufferPointer<UInt64>(start: nil, count: 0)
    /// The words' bytes, end to end, and where each starts (`starts[id]..<starts[id + 1]`).
    private var bytes = UnsafeMutableBufferPointer<UInt8>(start: nil, count: 0)
    private var starts = UnsafeMutableBufferPointer<Int>(start: nil, count: 0)
    /// Each word's index among the universal words (-1: not universal).
    private(set) var universal = UnsafeMutableBufferPointer<Int8>(start: nil, count: 0)
    private var mask = 0

    init() {}

    init(_ words: [[UInt8]], universal: [Int]) {
        var size = 16
        while size < words.count * 4 { size <<= 1 }
        slots = .allocate(capacity: size)
        slots.initialize(repeating: -1)
        hashes = .allocate(capacity: size)
        hashes.initialize(repeating: 0)
        mask = size - 1
        bytes = .allocate(capacity: max(1, words.reduce(0) { $0 + $1.count }))
        starts = .allocate(capacity: words.count + 1)
        self.universal = .allocate(capacity: max(1, words.count))
        var end = 0
        starts[0] = 0
        for (id, word) in words.enumerated() {
            for byte in word {
                bytes[end] = byte
                end += 1
            }
            starts[id + 1] = end
            self.universal[id] = Int8(universal[id])
            let hash = word.withUnsafeBufferPointer { Self.hash($0) }
            var slot = Int(truncatingIfNeeded: hash) & mask
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(id)
            hashes[slot] = hash
        }
    }

    func deallocate() {
        slots.deallocate()
        hashes.deallocate()
        bytes.deallocate()
        starts.deallocate()
        universal.deallocate()
    }

    /// Word `id`'s bytes.
    func word(_ id: Int32) -> UnsafeBufferPointer<UInt8> {
        let start = starts[Int(id)]
        return UnsafeBufferPointer(rebasing: bytes[start..<starts[Int(id) + 1]])
    }

    /// The id of `word` (ASCII letters of either case), whose ``hash(_:)`` (of its lowercase bytes) is `hash`; -1
    /// when it is none of the words.
    func find(_ word: UnsafeBufferPointer<UInt8>, hash: UInt64) -> Int32 {
        guard mask > 0 else { return -1 }
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot] >= 0 {
            if hashes[slot] == hash {
                let id = slots[slot]
                let start = starts[Int(id)]
                if starts[Int(id) + 1] - start == word.count {
                    var same = true
                    for index in 0..<word.count {
                        let byte = word[index]
                        if bytes[start + index] != (byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) {
                            same = false
                            break
                        }
                    }
                    if same { return id }
                }
            }
            slot = (slot + 1) & mask
        }
        return -1
    }

    /// FNV-1a of `bytes` (as they are).
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash = hashSeed
        for byte in bytes { hash = Self.hash(hash, byte) }
        return hash
    }

    /// One byte more of an FNV-1a hash.
    @inline(__always)
    static func hash(_ hash: UInt64, _ byte: UInt8) -> UInt64 { (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
}

/// A set of 64-bit keys for one page at a time: open addressing over raw memory, emptied in O(1) by a new
/// generation (each slot stamped with the generation that filled it), doubled when half full; freed by
/// ``deallocate()`` (its owner's).
private struct PairSet {
    private var keys = UnsafeMutableBufferPointer<UInt64>(start: nil, count: 0)
    private var stamps = UnsafeMutableBufferPointer<UInt32>(start: nil, count: 0)
    private var generation: UInt32 = 0
    private var count = 0

    /// Empties the set.
    mutating func clear() {
        count = 0
        generation &+= 1
        if generation == 0 {  // wrapped: every stamp is stale only once they are all reset
            if stamps.count > 0 { stamps.initialize(repeating: 0) }
            generation = 1
        }
    }

    /// Adds `key`; false when it was there.
    mutating func insert(_ key: UInt64) -> Bool {
        if (count + 1) * 2 > stamps.count { grow() }
        let mask = stamps.count - 1
        var slot = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 40) & mask
        while stamps[slot] == generation {
            if keys[slot] == key { return false }
            slot = (slot + 1) & mask
        }
        stamps[slot] = generation
        keys[slot] = key
        count += 1
        return true
    }

    func deallocate() {
        keys.deallocate()
        stamps.deallocate()
    }

    private mutating func grow() {
        let old = (keys, stamps)
        let size = max(1024, stamps.count * 2)
        keys = .allocate(capacity: size)
        stamps = .allocate(capacity: size)
        stamps.initialize(repeating: 0)
        let live = generation
        generation = 1
        count = 0
        for slot in 0..<old.1.count where old.1[slot] == live { _ = insert(old.0[slot]) }
        old.0.deallocate()
        old.1.deallocate()
    }
}
