/// Why ``JSONParser`` refused its input, and the byte offset where it saw it. Compare by kind:
/// `error.kind == .invalidUTF8`.
package struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of problem.
    package struct Kind: Sendable, Hashable, CustomStringConvertible {
        private let code: String
        private init(_ code: String) { self.code = code }
        /// The input ended inside a value.
        package static let end = Kind("unexpected end of input")
        /// A character no JSON value starts with, or a missing `,` `:` `]` `}`.
        package static let unexpected = Kind("unexpected character")
        /// Text after the value.
        package static let trailing = Kind("text after the value")
        /// Arrays and objects nested deeper than ``JSONParser/maximumDepth``.
        package static let tooDeep = Kind("nested too deep")
        /// An unescaped control character in a string.
        package static let control = Kind("control character in a string")
        /// A backslash escape JSON does not have.
        package static let escape = Kind("invalid escape")
        /// A `\u` escape of half a surrogate pair.
        package static let surrogate = Kind("invalid surrogate escape")
        /// A string's bytes are not UTF-8.
        package static let invalidUTF8 = Kind("invalid UTF-8")
        /// A number outside RFC 8259's grammar or beyond a `Double`.
        package static let number = Kind("invalid number")
        /// What the kind means, for people.
        package var description: String { code }
    }

    /// The kind of problem.
    package let kind: Kind
    /// The byte offset where the problem was seen.
    package let offset: Int

    init(_ kind: Kind, at offset: Int) {
        self.kind = kind
        self.offset = offset
    }

    /// The kind and where, e.g. `invalid UTF-8 at byte 12`.
    package var description: String { "\(kind) at byte \(offset)" }
}
