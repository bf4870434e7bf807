import Foundation

/// A docset version as publishers write it, with the total order docsync uses to pick "the newest".
///
/// Versions are free-form (`2.2.0`, `10.1`, `SE26`, `6.6 (modern)`, `13.x`), and Dash feeds add a revision after a
/// slash (`13.x/2`, revision-only `/9`, even `/1.35`). The order:
/// 1. The version part is split into segments: runs of digits (numbers) and runs of letters (words); every other
///    character (`.`, `-`, `_`, spaces, parentheses) only separates segments.
/// 2. Segments compare left to right: numbers numerically (`10` > `9`, leading zeros ignored), words
///    case-insensitively; a number is newer than a word in the same place (`2.1` > `2.beta`).
/// 3. When one version runs out of segments: trailing zeros are insignificant (`2.2` == `2.2.0`); a word after the
///    common part marks a pre-release (`2.0-rc1` < `2.0`, `2.0b` < `2.0`); otherwise the longer one is newer
///    (`2.0.1` > `2.0`).
/// 4. Versions equal under these rules compare by revision, which is ordered the same way (`/1.35` < `/2`); a
///    missing revision is the lowest. An empty version (revision-only feeds) is lower than any non-empty one.
package struct DocsetVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    package let version: String
    package let revision: String

    package init(version: String, revision: String = "") {
        self.version = version.trimmingCharacters(in: .whitespaces)
        self.revision = revision.trimmingCharacters(in: .whitespaces)
    }

    /// Splits Dash's `VERSION[/REVISION]` at its last slash.
    package init(dash text: String) {
        if let slash = text.lastIndex(of: "/") {
            self.init(version: String(text[..<slash]), revision: String(text[text.index(after: slash)...]))
        } else {
            self.init(version: text)
        }
    }

    package var description: String { revision.isEmpty ? version : "\(version)/\(revision)" }

    package static func < (lhs: Self, rhs: Self) -> Bool { compare(lhs, rhs) < 0 }

    package static func == (lhs: Self, rhs: Self) -> Bool { compare(lhs, rhs) == 0 }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(Self.normalized(Self.segments(version)))
        hasher.combine(Self.normalized(Self.segments(revision)))
    }

    /// -1, 0 or 1.
    package static func compare(_ lhs: Self, _ rhs: Self) -> Int {
        let byVersion = compareParts(lhs.version, rhs.version)
        return byVersion != 0 ? byVersion : compareParts(lhs.revision, rhs.revision)
    }

    enum Segment: Hashable {
        case number([UInt8])  // digits without leading zeros
        case word(String)  // lowercased
    }

    static func compareParts(_ a: String, _ b: String) -> Int {
        let left = segments(a)
        let right = segments(b)
        for (l, r) in zip(left, right) {
            let c = compare(l, r)
            if c != 0 { return c }
        }
        if left.count == right.count { return 0 }
        let longerIsLeft = left.count > right.count
        let rest = (longerIsLeft ? left : right).dropFirst(min(left.count, right.count))
        if rest.allSatisfy({ $0 == .number([]) }) { return 0 }  // 2.2 == 2.2.0
        // The longer side's first extra segment decides: a word marks a pre-release (older), a number is newer.
        let longerIsNewer: Bool =
            switch rest.first! {
            case .number: true
            case .word: false
            }
        return (longerIsNewer == longerIsLeft) ? 1 : -1
    }

    static func compare(_ l: Segment, _ r: Segment) -> Int {
        switch (l, r) {
        case (.number(let a), .number(let b)):
            if a.count != b.count { return a.count < b.count ? -1 : 1 }
            return a == b ? 0 : (a.lexicographicallyPrecedes(b) ? -1 : 1)
        case (.word(let a), .word(let b)):
            return a == b ? 0 : (a < b ? -1 : 1)
        case (.number, .word): return 1
        case (.word, .number): return -1
        }
    }

    static func segments(_ text: String) -> [Segment] {
        var result: [Segment] = []
        var digits: [UInt8] = []
        var letters = ""
        func flush() {
            if !letters.isEmpty {
                result.append(.word(letters.lowercased()))
                letters = ""
            }
        }
        func flushDigits() {
            if !digits.isEmpty {
                result.append(.number(Array(digits.drop { $0 == UInt8(ascii: "0") })))
                digits = []
            }
        }
        for scalar in text.unicodeScalars {
            if scalar.properties.numericType == .decimal, scalar.isASCII {
                flush()
                digits.append(UInt8(scalar.value))
            } else if scalar.properties.isAlphabetic {
                flushDigits()
                letters.unicodeScalars.append(scalar)
            } else {
                flush()
                flushDigits()
            }
        }
        flush()
        flushDigits()
        return result
    }

    static func normalized(_ segments: [Segment]) -> [Segment] {
        var s = segments
        while s.last == .number([]) { s.removeLast() }
        return s
    }
}
