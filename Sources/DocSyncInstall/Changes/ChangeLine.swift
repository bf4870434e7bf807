#if canImport(Glibc)
    import Glibc
#endif

/// One change log line split into its fields, as bytes (valid only while the line's buffer is: a reader's visit),
/// checked as ``ChangeRecord`` checks it: a reader that writes each record out (`docsync changes --json`) makes no
/// `String` per field. The text fields are as the log keeps them (`%` escapes included: ``ChangeRecord/unescape(_:)``
/// gives their text); a side exists when its folder field is not empty.
package struct ChangeLine {
    package var sequence: UInt64
    package var kind: ChangeRecord.Kind
    package var docset: UnsafeBufferPointer<UInt8>
    package var fromVersion: UnsafeBufferPointer<UInt8>
    package var fromFolder: UnsafeBufferPointer<UInt8>
    package var toVersion: UnsafeBufferPointer<UInt8>
    package var toFolder: UnsafeBufferPointer<UInt8>
    /// When the change was made, in milliseconds since 1970.
    package var at: Int64

    /// The fields of one log line's bytes (without its newline); nil when it is not a change record: eight fields,
    /// decimal sequence and time, a known kind, text fields whose escapes decode, and the sides the kind implies.
    package init?(bytes line: UnsafeBufferPointer<UInt8>) {
        var start = 0
        func next() -> UnsafeBufferPointer<UInt8>? {
            guard start <= line.count else { return nil }
            let end = Self.tab(in: line, from: start) ?? line.count
            defer { start = end + 1 }
            return UnsafeBufferPointer(rebasing: line[start..<end])
        }
        guard let f0 = next(), let f1 = next(), let f2 = next(), let f3 = next(), let f4 = next(), let f5 = next(),
            let f6 = next(), let f7 = next(), start == line.count + 1
        else { return nil }
        guard let sequence = Self.number(f0), let kind = Self.kind(f1), let at = Self.number(f7).map(Int64.init),
            Self.decodes(f2)
        else { return nil }
        // A side whose folder is empty does not exist (its version field is not read).
        guard f4.isEmpty || (Self.decodes(f3) && Self.decodes(f4)), f6.isEmpty || (Self.decodes(f5) && Self.decodes(f6))
        else { return nil }
        switch kind {
        case .installed: guard f4.isEmpty, !f6.isEmpty else { return nil }
        case .updated: guard !f4.isEmpty, !f6.isEmpty else { return nil }
        case .removed: guard !f4.isEmpty, f6.isEmpty else { return nil }
        }
        self.sequence = sequence
        self.kind = kind
        docset = f2
        (fromVersion, fromFolder, toVersion, toFolder) = (f3, f4, f5, f6)
        self.at = at
    }

    /// The next tab in `line` from `start` (memchr).
    private static func tab(in line: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard start < line.count, let base = line.baseAddress,
            let found = memchr(base + start, 9, line.count - start)
        else { return nil }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }

    /// Whether a text field's escapes decode (a field without `%` always does).
    private static func decodes(_ field: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = field.baseAddress, memchr(base, Int32(UInt8(ascii: "%")), field.count) != nil else {
            return true
        }
        return ChangeRecord.unescape(field) != nil
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

    private static func kind(_ bytes: UnsafeBufferPointer<UInt8>) -> ChangeRecord.Kind? {
        let kind: ChangeRecord.Kind
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
}
