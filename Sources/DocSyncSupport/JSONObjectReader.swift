/// Typed reads of a parsed JSON object's members (``JSONParser``) under `Decodable`'s rules for what docsync writes:
/// a missing or `null` member is nil for an optional read and a mismatch for a required one; a member of another
/// type is a mismatch; an integer must be a whole number that a `Double` holds exactly (|n| < 2^53). A caller
/// falls back to `JSONDecoder` on a mismatch, so unusual input gets exactly the old verdict. Pure.
package struct JSONObjectReader {
    /// A member missing, or of a type the reader did not expect.
    package struct Mismatch: Error, Sendable, Equatable {
        /// The member's name.
        package let key: String

        /// A mismatch at member `key` (empty: the value is not an object).
        package init(key: String) { self.key = key }
    }

    /// The object's members.
    package let members: [String: JSONValue]

    /// The reader of `value`; nil unless it is an object.
    package init?(_ value: JSONValue?) {
        guard case .object(let members)? = value else { return nil }
        self.members = members
    }

    /// A string member that must be there.
    package func string(_ key: String) throws(Mismatch) -> String {
        guard let value = try optionalString(key) else { throw Mismatch(key: key) }
        return value
    }

    /// A string member, nil when missing or `null`.
    package func optionalString(_ key: String) throws(Mismatch) -> String? {
        switch members[key] {
        case nil, .null?: return nil
        case .string(let value)?: return value
        default: throw Mismatch(key: key)
        }
    }

    /// An array of strings, nil when missing or `null`.
    package func optionalStrings(_ key: String) throws(Mismatch) -> [String]? {
        switch members[key] {
        case nil, .null?: return nil
        case .array(let items)?:
            var strings: [String] = []
            strings.reserveCapacity(items.count)
            for item in items {
                guard case .string(let value) = item else { throw Mismatch(key: key) }
                strings.append(value)
            }
            return strings
        default: throw Mismatch(key: key)
        }
    }

    /// A whole-number member that must be there.
    package func int64(_ key: String) throws(Mismatch) -> Int64 {
        guard let value = try optionalInt64(key) else { throw Mismatch(key: key) }
        return value
    }

    /// A whole-number member, nil when missing or `null`.
    package func optionalInt64(_ key: String) throws(Mismatch) -> Int64? {
        switch members[key] {
        case nil, .null?: return nil
        case .number(let value)? where value.rounded() == value && abs(value) < 9_007_199_254_740_992:
            return Int64(value)
        default: throw Mismatch(key: key)
        }
    }
}
