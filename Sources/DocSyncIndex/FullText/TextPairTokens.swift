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
    private var out = TokenBytes(capacity: 4 << 10)
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
        out.deallocate()
    }

    /// Chooses the common and universal words from `pages` (the first pages of an index: each page counted once per
    /// word) of a docset of `docsetPages` HTML pages (nil: not known; `FullTextPairs.commonShare(pages:)`). The words
    /// are read as ``tokens(title:body:)`` reads them and counted in a table of their bytes (no `String` nor `Hasher`
    /// per word): the writers wait for these words before their first page.
    package func choose(_ pages: [(title: String, body: String)], docsetPages: Int? = nil) throws(DocsetIndexError) {
        var counts = WordCounts()
        defer { counts.deallocate() }
        for (index, (title, body)) in pages.enumerated() {
            for text in [title, body] {
                try eachRun(text) { run, hash, ascii throws(DocsetIndexError) in
                    if ascii { return counts.add(run, hash: hash, page: Int32(index)) }
                    for token in try slowWords(String(decoding: run, as: UTF8.self)) {
                        var token = token
                        token.withUTF8 { counts.add($0, hash: WordTable.hash($0), page: Int32(index)) }
                    }
                }
            }
        }
        use(FullTextPairs.words(counts: counts.dictionary, pages: pages.count, docsetPages: docsetPages))
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
        // The page's state in a local (raw memory in structs): no exclusivity check, reference count nor
        // uniqueness check per word or byte, as there would be on this object's properties or in a closure.
        var page = PageTokens(table: table, seen: seen, out: out)
        page.seen.clear()
        page.out.count = 0
        defer {
            seen = page.seen
            // A large page's buffer is not kept for the next ones.
            if page.out.capacity > Self.keptBytes {
                page.out.deallocate()
                page.out = TokenBytes(capacity: 4 << 10)
            }
            out = page.out
        }
        try fieldTokens(title, into: &page)
        try fieldTokens(body, into: &page)
        for (index, word) in words.universal.enumerated() where page.present & (1 << UInt64(index)) == 0 {
            var word = word
            word.withUTF8 { page.out.appendToken(0x5F, $0) }
        }
        return page.out.string
    }

    /// Appends the pairs of one field (the title, the body) to `page` and marks the universal words it holds.
    private func fieldTokens(_ text: String, into page: inout PageTokens) throws(DocsetIndexError) {
        page.previous = -1
        try eachRun(text) { run, hash, ascii throws(DocsetIndexError) in
            if ascii { return page.visit(page.table.find(run, hash: hash)) }
            for token in try slowWords(String(decoding: run, as: UTF8.self)) {
                var token = token
                token.withUTF8 { page.visit(page.table.find($0, hash: WordTable.hash($0))) }
            }
        }
    }

    /// Calls `visit` with each run of `text` between ASCII separators: a run of ASCII letters and digits (a word:
    /// `ascii`, with the ``WordTable/hash(_:)`` of its lowercase bytes) or of those and other characters (which
    /// SQLite's tokenizer reads: ``slowWords(_:)``). The bytes are read in place.
    @inline(__always)
    private func eachRun(
        _ text: String,
        _ visit: (_ run: UnsafeBufferPointer<UInt8>, _ hash: UInt64, _ ascii: Bool) throws(DocsetIndexError) -> Void
    ) throws(DocsetIndexError) {
        var text = text
        var failure: DocsetIndexError?
        text.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return }
            Self.runBytes.withUnsafeBufferPointer { runBytes in
                let count = bytes.count
                var index = 0
                while index < count {
                    var byte = runBytes[Int(base[index])]
                    guard byte != 0 else {
                        index += 1
                        continue
                    }
                    let start = index
                    var hash = WordTable.hashSeed
                    var ascii = true
                    repeat {
                        if byte >= 0x80 { ascii = false }
                        hash = WordTable.hash(hash, byte)
                        index += 1
                        if index == count { break }
                        byte = runBytes[Int(base[index])]
                    } while byte != 0
                    do throws(DocsetIndexError) {
                        try visit(UnsafeBufferPointer(start: base + start, count: index - start), hash, ascii)
                    } catch {
                        failure = error
                        return
                    }
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

    /// Each byte as a run holds it (``isRunByte(_:)``), ASCII letters lowercased, or 0 for a separator: one load
    /// per byte in ``eachRun(_:_:)``.
    private static let runBytes: [UInt8] = (0...255).map { (byte: UInt8) -> UInt8 in
        guard isRunByte(byte) else { return 0 }
        return byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
    }
}

/// How many pages each word is on, over the pages ``TextPairTokens/choose(_:)`` reads: an open-addressing table
/// of the words' lowercase bytes (FNV-1a hashes, ASCII letters lowercased when compared and stored), each with its
/// count and the last page that counted it. Raw memory, freed by ``deallocate()`` (its owner's).
private struct WordCounts {
    private var slots = UnsafeMutableBufferPointer<Int32>.allocate(capacity: 1 << 14)
    private var hashes = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: 1 << 14)
    /// The words' bytes, end to end, and where each starts (`starts[id]..<starts[id + 1]`).
    private var bytes = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 1 << 16)
    private var starts = UnsafeMutableBufferPointer<Int>.allocate(capacity: 1 << 13)
    private var counts = UnsafeMutableBufferPointer<Int32>.allocate(capacity: 1 << 13)
    private var pages = UnsafeMutableBufferPointer<Int32>.allocate(capacity: 1 << 13)
    private var words = 0

    init() {
        slots.initialize(repeating: -1)
        starts[0] = 0
    }

    func deallocate() {
        slots.deallocate()
        hashes.deallocate()
        bytes.deallocate()
        starts.deallocate()
        counts.deallocate()
        pages.deallocate()
    }

    /// Counts `word` (ASCII letters of either case; `hash`: of its lowercase bytes) on `page`, once per page.
    mutating func add(_ word: UnsafeBufferPointer<UInt8>, hash: UInt64, page: Int32) {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot] >= 0 {
            let id = Int(slots[slot])
            if hashes[slot] == hash, same(id, word) {
                if pages[id] != page {
                    pages[id] = page
                    counts[id] += 1
                }
                return
            }
            slot = (slot + 1) & mask
        }
        // A new word.
        if words + 1 >= counts.count { growWords() }
        let start = starts[words]
        if start + word.count > bytes.count { growBytes(start + word.count) }
        for (offset, byte) in word.enumerated() {
            bytes[start + offset] = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
        }
        starts[words + 1] = start + word.count
        counts[words] = 1
        pages[words] = page
        slots[slot] = Int32(words)
        hashes[slot] = hash
        words += 1
        if words * 2 > slots.count { growSlots() }
    }

    /// Each word and the pages it is on.
    var dictionary: [String: Int] {
        var out: [String: Int] = [:]
        out.reserveCapacity(words)
        for id in 0..<words {
            let word = UnsafeBufferPointer(rebasing: bytes[starts[id]..<starts[id + 1]])
            out[String(decoding: word, as: UTF8.self)] = Int(counts[id])
        }
        return out
    }

    private func same(_ id: Int, _ word: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = starts[id]
        guard starts[id + 1] - start == word.count else { return false }
        for index in 0..<word.count {
            let byte = word[index]
            if bytes[start + index] != (byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) { return false }
        }
        return true
    }

    private mutating func growWords() {
        let size = counts.count * 2
        starts = Self.grown(starts, to: size + 1, keeping: words + 1)
        counts = Self.grown(counts, to: size, keeping: words)
        pages = Self.grown(pages, to: size, keeping: words)
    }

    private mutating func growBytes(_ needed: Int) {
        bytes = Self.grown(bytes, to: max(bytes.count * 2, needed), keeping: starts[words])
    }

    private mutating func growSlots() {
        let size = slots.count * 2
        slots.deallocate()
        hashes.deallocate()
        slots = .allocate(capacity: size)
        slots.initialize(repeating: -1)
        hashes = .allocate(capacity: size)
        hashes.initialize(repeating: 0)
        let mask = size - 1
        for id in 0..<words {
            let word = UnsafeBufferPointer(rebasing: bytes[starts[id]..<starts[id + 1]])
            let hash = WordTable.hash(word)
            var slot = Int(truncatingIfNeeded: hash) & mask
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(id)
            hashes[slot] = hash
        }
    }

    private static func grown<Element>(
        _ buffer: UnsafeMutableBufferPointer<Element>, to size: Int, keeping count: Int
    ) -> UnsafeMutableBufferPointer<Element> {
        let grown = UnsafeMutableBufferPointer<Element>.allocate(capacity: size)
        if count > 0 {
            _ = grown.initialize(fromContentsOf: UnsafeMutableBufferPointer(rebasing: buffer[0..<count]))
        }
        buffer.deallocate()
        return grown
    }
}

/// One page's state while its tokens are made (``TextPairTokens/tokens(title:body:)``), a local: the common words'
/// table, the page's pairs so far, its tokens, the previous word's id and the universal words seen.
private struct PageTokens {
    let table: WordTable
    var seen: PairSet
    var out: TokenBytes
    var previous: Int32 = -1
    var present: UInt64 = 0

    init(table: WordTable, seen: PairSet, out: TokenBytes) {
        self.table = table
        self.seen = seen
        self.out = out
    }

    /// The next word: its id among the common words, -1 for another word. A pair of common words is written once.
    @inline(__always)
    mutating func visit(_ id: Int32) {
        if id >= 0 {
            let universal = table.universal[Int(id)]
            if universal >= 0 { present |= 1 << UInt64(universal) }
            if previous >= 0, seen.insert(UInt64(previous) << 32 | UInt64(id)) {
                out.appendPair(table.word(previous), table.word(id))
            }
        }
        previous = id
    }
}

/// A page's tokens as they are written (space-separated), in raw memory reused from page to page; freed by
/// ``deallocate()`` (its owner's).
private struct TokenBytes {
    private var base: UnsafeMutablePointer<UInt8>
    var count = 0
    private(set) var capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
        base = .allocate(capacity: capacity)
    }

    func deallocate() { base.deallocate() }

    var string: String { String(decoding: UnsafeBufferPointer(start: base, count: count), as: UTF8.self) }

    /// Appends `first`, `_` and `second`, after a space unless first.
    mutating func appendPair(_ first: UnsafeBufferPointer<UInt8>, _ second: UnsafeBufferPointer<UInt8>) {
        reserve(first.count + second.count + 2)
        if count > 0 { append(0x20) }
        append(first)
        append(0x5F)
        append(second)
    }

    /// Appends `prefix` and `word`, after a space unless first.
    mutating func appendToken(_ prefix: UInt8, _ word: UnsafeBufferPointer<UInt8>) {
        reserve(word.count + 2)
        if count > 0 { append(0x20) }
        append(prefix)
        append(word)
    }

    @inline(__always)
    private mutating func append(_ byte: UInt8) {
        base[count] = byte
        count += 1
    }

    @inline(__always)
    private mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        (base + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    private mutating func reserve(_ more: Int) {
        guard count + more > capacity else { return }
        capacity = max(capacity * 2, count + more)
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        grown.update(from: base, count: count)
        base.deallocate()
        base = grown
    }
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
