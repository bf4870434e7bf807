import Foundation

/// The one JSON dialect of docsync: every `--json` output of the CLI and every ``SyncEvent`` use it.
///
/// Keys are snake_case (each type spells its keys out, so acronyms such as `archive_sha256` round-trip), object
/// keys are sorted, slashes are not escaped, dates are ISO 8601 with whole seconds (`2026-11-23T15:00:00Z`), and
/// absent optional values are left out. Every top-level object carries `"schema": 1` (``schema``); a consumer that
/// sees a higher number should expect changed meanings. The objects are documented in <doc:JSONObjects>.
public enum DocSyncJSON {
    /// The version of the JSON objects docsync writes; raised only when a field changes meaning or disappears.
    public static let schema = 1

    /// An encoder in docsync's dialect (compact: one object per line).
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }

    /// A decoder for what ``encoder()`` writes.
    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    /// `value` as one line of JSON (no trailing newline).
    public static func line(_ value: some Encodable) throws -> String {
        String(decoding: try encoder().encode(value), as: UTF8.self)
    }
}
