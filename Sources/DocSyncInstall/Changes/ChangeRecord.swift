#if canImport(Glibc)
    import Glibc
#endif

/// One change to the set of installed docsets under a root, as the change log (`ChangeLog`) keeps it.
///
/// One line of the log: eight tab-separated fields, `SEQ KIND DOCSET FROM-VERSION FROM-FOLDER TO-VERSION TO-FOLDER
/// AT-MILLISECONDS`, text fields percent-encoding `%`, tab, newline, carriage return and other control characters; a
/// side that does not exist (`from` of `installed`, `to` of `removed`) is two empty fields. What a version holds (its
/// content digest) is kept beside the log, per version folder (`VersionSummary`).
package struct ChangeRecord: Sendable, Equatable {
    /// What happened to the docset.
    package enum Kind: String, Sendable, Equatable {
        case installed, updated, removed
    }

    /// One side of a change: the docset as it was (or is) installed.
    package struct Side: Sendable, Equatable {
        /// The publisher's version (`meta.json`'s), "" when it has none.
        package var version: String
        /// The version folder under `.docsync/versions/` (`NAME@ID`).
        package var folder: String

        package init(version: String, folder: String) {
            self.version = version
            self.folder = folder
        }
    }

    /// Strictly increasing within a log (`ChangeCursor`).
    package var sequence: UInt64
    package var kind: Kind
    package var docset: String
    package var from: Side?
    package var to: Side?
    /// When the change was made, in milliseconds since 1970.
    package var at: Int64

    package init(sequence: UInt64, kind: Kind, docset: String, from: Side?, to: Side?, at: Int64) {
        self.sequence = sequence
        self.kind = kind
        self.docset = docset
        self.from = from
        self.to = to
        self.at = at
    }

    /// The change a flip of `docset` from `from` to `to` makes (nil: none — `sameContent`, the same version with
    /// the same bytes, or nothing before and after).
    package static func change(docset: String, from: Side?, to: Side?, sameContent: Bool, at: Int64)
        -> ChangeRecord?
    {
        let kind: Kind
        switch (from, to) {
        case (nil, nil): return nil
        case (nil, .some): kind = .installed
        case (.some, nil): kind = .removed
        case (.some(let old), .some(let new)):
            if old.version == new.version && sameContent { return nil }
            kind = .updated
        }
        return ChangeRecord(sequence: 0, kind: kind, docset: docset, from: from, to: to, at: at)
    }

    /// The log line, newline included.
    package var line: String {
        func side(_ side: Side?) -> [String] {
            guard let side else { return ["", ""] }
            return [Self.escape(side.version), Self.escape(side.folder)]
        }
        let fields = ["\(sequence)", kind.rawValue, Self.escape(docset)] + side(from) + side(to) + ["\(at)"]
        return fields.joined(separator: "\t") + "\n"
    }

    /// A record from one log line (without its newline); nil when it is not one.
    package init?(line: Substring) {
        var line = line
        guard let record = line.withUTF8({ ChangeRecord(bytes: $0) }) else { return nil }
        self = record
    }

    /// A record from one log line's bytes (without its newline); nil when it is not one. Splits on the tab byte
    /// and makes a `String` only for the text fields (a log of 100k lines is read in tens of milliseconds).
    package init?(bytes line: UnsafeBufferPointer<UInt8>) {
        var strings = ChangeStrings()
        self.init(bytes: line, sharing: &strings)
    }

    /// As `init?(bytes:)`, sharing the text that repeats across a run of lines through `strings` (read in order).
    init?(bytes line: UnsafeBufferPointer<UInt8>, sharing strings: inout ChangeStrings) {
        var start = 0
        func next() -> UnsafeBufferPointer<UInt8>? {
            guard start <= line.count else { return nil }
            let rest = UnsafeBufferPointer(rebasing: line[start...])
            let end = ChangeLogFile.index(of: 9, in: rest, from: 0, to: rest.count).map { start + $0 } ?? line.count
            defer { start = end + 1 }
            return UnsafeBufferPointer(rebasing: line[start..<end])
        }
        guard let f0 = next(), let f1 = next(), let f2 = next(), let f3 = next(), let f4 = next(), let f5 = next(),
            let f6 = next(), let f7 = next(), start == line.count + 1
        else { return nil }
        guard let sequence = Self.number(f0), let kind = Self.kind(f1), let (docset, slot) = strings.docset(f2),
            let at = Self.number(f7).map(Int64.init)
        else { return nil }
        guard let from = strings.side(slot: slot, version: f3, folder: f4),
            let to = strings.side(slot: slot, version: f5, folder: f6)
        else { return nil }
        switch kind {
        case .installed: guard from == nil, to != nil else { return nil }
        case .updated: guard from != nil, to != nil else { return nil }
        case .removed: guard from != nil, to == nil else { return nil }
        }
        strings.installed(to, slot: slot)
        self.init(sequence: sequence, kind: kind, docset: docset, from: from, to: to, at: at)
    }

    /// A decimal number of 1 to 18 digits (nil otherwise).
    private static func number(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64? {
        guard (1...18).contains(bytes.count) else { return nil }
        var value: UInt64 = 0
        for byte in bytes {
            guard (48...57).contains(byte) else { return nil }
            value = value * 10 + UInt64(byte - 48)
        }
        return value
    }

    private static func kind(_ bytes: UnsafeBufferPointer<UInt8>) -> Kind? {
        let kind: Kind
        let name: StaticString
        switch bytes.first {
        case UInt8(ascii: "i"): (kind, name) = (.installed, "installed")
        case UInt8(ascii: "u"): (kind, name) = (.updated, "updated")
        case UInt8(ascii: "r"): (kind, name) = (.removed, "removed")
        default: return nil
        }
        guard bytes.count == name.utf8CodeUnitCount else { return nil }
        return memcmp(bytes.baseAddress!, name.utf8Start, bytes.count) == 0 ? kind : nil
    }

    /// `unescape` of a field's bytes: a `String` straight from the bytes when there is no `%`.
    static func unescape(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard bytes.contains(UInt8(ascii: "%")) else { return String(decoding: bytes, as: UTF8.self) }
        return unescape(String(decoding: bytes, as: UTF8.self))
    }

    static func escape(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "%") || $0 < 0x20 || $0 == 0x7F }) else {
            return text
        }
        var out = ""
        for scalar in text.unicodeScalars {
            if scalar == "%" || scalar.value < 0x20 || scalar.value == 0x7F {
                out += "%" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16, uppercase: true)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    static func unescape<S: StringProtocol>(_ text: S) -> String? {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return String(text) }
        var bytes: [UInt8] = []
        var utf8 = Array(text.utf8)[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%") {
                guard utf8.count >= 2, let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16)
                else { return nil }
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
