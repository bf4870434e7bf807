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
        guard let fields = ChangeLine(bytes: line) else { return nil }
        self.init(fields, sharing: &strings)
    }

    /// The record of a line's checked fields, its text made (or shared) through `strings` (nil only when a text
    /// field's escapes do not decode, which `ChangeLine` rules out).
    init?(_ line: ChangeLine, sharing strings: inout ChangeStrings) {
        guard let (docset, slot) = strings.docset(line.docset),
            let from = strings.side(slot: slot, version: line.fromVersion, folder: line.fromFolder),
            let to = strings.side(slot: slot, version: line.toVersion, folder: line.toFolder)
        else { return nil }
        strings.installed(to, slot: slot)
        self.init(sequence: line.sequence, kind: line.kind, docset: docset, from: from, to: to, at: line.at)
    }

    /// `unescape` of a field's bytes: a `String` straight from the bytes when there is no `%` (invalid UTF-8
    /// repaired, as `String(decoding:as:)` does).
    package static func unescape(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
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
