/// A position in a root's change log, as handed to readers: opaque text naming the log (its epoch, random, made
/// with the log) and the sequence number of the last record the reader has seen (0: before the first).
package struct ChangeCursor: Sendable, Equatable {
    package var epoch: String
    package var sequence: UInt64

    package init(epoch: String, sequence: UInt64) {
        self.epoch = epoch
        self.sequence = sequence
    }

    /// The cursor's text: `EPOCH-SEQUENCE` in base 36.
    package var text: String { Self.text(epoch: epoch, sequence: sequence) }

    /// `EPOCH-SEQUENCE` written straight into one `String`'s storage (a whole log's cursors are made in a read).
    package static func text(epoch: String, sequence: UInt64) -> String {
        var epoch = epoch
        return epoch.withUTF8 { prefix in
            String(unsafeUninitializedCapacity: prefix.count + 14) { buffer in
                _ = buffer.initialize(from: prefix)
                buffer[prefix.count] = UInt8(ascii: "-")
                var digits = 1
                var rest = sequence / 36
                while rest > 0 {
                    digits += 1
                    rest /= 36
                }
                var value = sequence
                for index in stride(from: prefix.count + digits, to: prefix.count, by: -1) {
                    let digit = UInt8(value % 36)
                    buffer[index] = digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10
                    value /= 36
                }
                return prefix.count + 1 + digits
            }
        }
    }

    /// A cursor from its text; nil when the text is not one (never one docsync handed out).
    package init?(text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, ChangeLogFile.isEpoch(parts[0]), parts[1].count <= 13,
            parts[1].allSatisfy({ $0.isASCII && ($0.isNumber || $0.isLowercase) }),
            let sequence = UInt64(parts[1], radix: 36)
        else { return nil }
        self.init(epoch: String(parts[0]), sequence: sequence)
    }

    /// Where a read from this cursor stands against a log whose settled records are `first...last`.
    package enum Standing: Equatable, Sendable {
        case valid
        /// Another log's cursor, or one beyond the log's end: never handed out by this log.
        case unknown
        /// Records after it were dropped (`[changes] keep`).
        case expired
    }

    package func standing(epoch logEpoch: String, first: UInt64, last: UInt64) -> Standing {
        if epoch != logEpoch || sequence > last { return .unknown }
        return sequence + 1 < first ? .expired : .valid
    }
}
