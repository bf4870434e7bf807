import DocSync

/// A value's JSON object with `"schema": 1` added beside its members (for `install --json`).
struct SchemaJSON<Value: Encodable>: Encodable {
    var value: Value

    private enum Key: String, CodingKey { case schema }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(DocSyncJSON.schema, forKey: .schema)
        try value.encode(to: encoder)
    }

    /// One line of JSON in docsync's dialect.
    static func line(_ value: Value) -> String { (try? DocSyncJSON.line(SchemaJSON(value: value))) ?? "{}" }
}
