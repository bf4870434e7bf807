import Foundation
package import DocSyncInstall
internal import DocSyncSupport

/// `docsync changes --json`'s lines: one JSON object per change, keys sorted, written as bytes. The same line from a
/// ``DocsetChange`` (`--follow`, the library's values) and straight from a change log line's bytes (the whole log:
/// no `String` per field and no `Date` per record), byte for byte.
package enum ChangeJSONLines {
    /// The JSON object's fixed parts, made once (keys sorted).
    private static let atKey = Array(#"{"at":""#.utf8)
    private static let cursorKey = Array(#"","cursor":""#.utf8)
    private static let docsetKey = Array(#","docset":"#.utf8)
    private static let fromKey = Array(#","from":"#.utf8)
    private static let fromVersionIDKey = Array(#","from_version_id":"#.utf8)
    private static let kindMembers = DocsetChange.Kind.allCases.map {
        Array(#","kind":"\#($0.rawValue)","schema":\#(DocSyncJSON.schema)"#.utf8)
    }
    private static let toKey = Array(#","to":"#.utf8)
    private static let toVersionIDKey = Array(#","to_version_id":"#.utf8)
    private static let end = Array("}\n".utf8)
    /// Base 36's digits, as ``ChangeCursor`` writes a sequence number.
    private static let digits36 = Array("0123456789abcdefghijklmnopqrstuvwxyz".utf8)

    /// One change's line: its fixed parts copied whole and each text field copied as it is unless it needs an escape.
    package static func append(_ change: DocsetChange, to out: inout [UInt8]) {
        func member(_ key: [UInt8], _ value: String?) {
            guard var value else { return }
            value.withUTF8 { Self.member(key, $0, to: &out) }
        }
        out.append(contentsOf: atKey)
        appendDate(change.at, to: &out)
        out.append(contentsOf: cursorKey)
        var cursor = change.cursor
        cursor.withUTF8 { JSONText.appendEscaped(utf8: $0, to: &out) }
        out.append(UInt8(ascii: "\""))
        member(docsetKey, change.docset)
        member(fromKey, change.from)
        member(fromVersionIDKey, change.fromVersionID)
        appendKind(change.kind, to: &out)
        member(toKey, change.to)
        member(toVersionIDKey, change.toVersionID)
        out.append(contentsOf: end)
    }

    /// The line of the change a log line records (its fields checked by `ChangeLine`) in the log of `epoch`: what
    /// ``append(_:to:)`` writes for the ``DocsetChange`` the library makes of the same line.
    package static func append(_ line: ChangeLine, epoch: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        func member(_ key: [UInt8], _ field: UnsafeBufferPointer<UInt8>) {
            if isPlain(field) {
                out.append(contentsOf: key)
                out.append(UInt8(ascii: "\""))
                out.append(contentsOf: field)
                out.append(UInt8(ascii: "\""))
            } else if var text = ChangeRecord.unescape(field) {  // `%` escapes, non-ASCII or a JSON escape: rare
                text.withUTF8 { Self.member(key, $0, to: &out) }
            }
        }
        out.append(contentsOf: atKey)
        // `DocsetChange.at`'s arithmetic (`Date(timeIntervalSince1970:)` and back), without a `Date`.
        let since1970 = (Double(line.at) / 1000 - 978_307_200) + 978_307_200
        appendDate(seconds: Int64(since1970.rounded(.down)), to: &out)
        out.append(contentsOf: cursorKey)
        out.append(contentsOf: epoch)
        out.append(UInt8(ascii: "-"))
        appendBase36(line.sequence, to: &out)
        out.append(UInt8(ascii: "\""))
        member(docsetKey, line.docset)
        if !line.fromFolder.isEmpty {
            member(fromKey, line.fromVersion)
            member(fromVersionIDKey, line.fromFolder)
        }
        appendKind(DocsetChange.Kind(line.kind), to: &out)
        if !line.toFolder.isEmpty {
            member(toKey, line.toVersion)
            member(toVersionIDKey, line.toFolder)
        }
        out.append(contentsOf: end)
    }

    /// `key` then the string `text` (valid UTF-8), escaped where JSON needs it.
    private static func member(_ key: [UInt8], _ text: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        out.append(contentsOf: key)
        out.append(UInt8(ascii: "\""))
        JSONText.appendEscaped(utf8: text, to: &out)
        out.append(UInt8(ascii: "\""))
    }

    private static func appendKind(_ kind: DocsetChange.Kind, to out: inout [UInt8]) {
        switch kind {
        case .installed: out.append(contentsOf: kindMembers[0])
        case .updated: out.append(contentsOf: kindMembers[1])
        case .removed: out.append(contentsOf: kindMembers[2])
        }
    }

    /// Whether a log field is its JSON string's bytes as they are: ASCII without `%` (the log's escape), control
    /// characters, `"` or `\`; eight bytes at a time.
    static func isPlain(_ field: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = field.baseAddress else { return true }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high = ones &* 0x80
        func special(_ word: UInt64) -> Bool {
            let quote = word ^ (ones &* 0x22)
            let backslash = word ^ (ones &* 0x5C)
            let percent = word ^ (ones &* 0x25)
            let control = (word &- ones &* 0x20) & ~word  // a byte below 0x20 (bytes >= 0x80 are caught apart)
            let zero = ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | ((percent &- ones) & ~percent)
            return (word | control | zero) & high != 0
        }
        var i = 0
        while i + 8 <= field.count {
            if special(UnsafeRawPointer(base).loadUnaligned(fromByteOffset: i, as: UInt64.self)) { return false }
            i += 8
        }
        while i < field.count {
            let byte = base[i]
            if byte < 0x20 || byte >= 0x80 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
                || byte == UInt8(ascii: "%")
            {
                return false
            }
            i += 1
        }
        return true
    }

    /// `sequence` in base 36 (lowercase), as ``ChangeCursor`` writes it.
    private static func appendBase36(_ sequence: UInt64, to out: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 13) { text in
            var value = sequence
            var start = 13
            repeat {
                start -= 1
                text[start] = digits36[Int(value % 36)]
                value /= 36
            } while value > 0
            out.append(contentsOf: UnsafeBufferPointer(rebasing: text[start...]))
        }
    }

    /// `2026-11-23T15:00:00Z` (whole seconds, UTC), as ``DocSyncJSON`` writes dates, appended as bytes.
    package static func appendDate(_ date: Date, to out: inout [UInt8]) {
        appendDate(seconds: Int64(date.timeIntervalSince1970.rounded(.down)), to: &out)
    }

    /// The date of `seconds` since 1970 (no libc call: `docsync changes --json` writes 100k of them). The proleptic
    /// Gregorian calendar's date from a day number (H. Hinnant's `civil_from_days`).
    static func appendDate(seconds: Int64, to out: inout [UInt8]) {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153  // March = 0
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { text in
            func digits(_ value: Int64, at start: Int, _ count: Int) {
                var rest = value
                for index in stride(from: start + count - 1, through: start, by: -1) {
                    text[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
                    rest /= 10
                }
            }
            digits(year, at: 0, 4)
            text[4] = UInt8(ascii: "-")
            digits(month, at: 5, 2)
            text[7] = UInt8(ascii: "-")
            digits(day, at: 8, 2)
            text[10] = UInt8(ascii: "T")
            digits(secondOfDay / 3_600, at: 11, 2)
            text[13] = UInt8(ascii: ":")
            digits(secondOfDay / 60 % 60, at: 14, 2)
            text[16] = UInt8(ascii: ":")
            digits(secondOfDay % 60, at: 17, 2)
            text[19] = UInt8(ascii: "Z")
            out.append(contentsOf: UnsafeBufferPointer(text))
        }
    }
}

extension DocsetChange.Kind {
    /// The public kind of a log record's.
    package init(_ kind: ChangeRecord.Kind) {
        switch kind {
        case .installed: self = .installed
        case .updated: self = .updated
        case .removed: self = .removed
        }
    }
}
