extension Unicode.Scalar {
    /// C0 controls, DEL, C1 controls (U+0080–U+009F, which include the one-byte CSI), and the bidirectional
    /// overrides and isolates that can reorder what a terminal shows.
    package var isUnsafeForDisplay: Bool {
        switch value {
        case 0x00...0x1F, 0x7F...0x9F, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}

extension String {
    /// This text with every control character escaped (`\n`, `\t`, `\r`, `\e`, else `\u{XX}`), so text from a feed,
    /// a server or a file name can be printed without moving the cursor, recolouring the terminal or hiding a line.
    /// Every CLI printer passes untrusted text (names, versions, URLs, server messages, reasons) through this.
    package var escapingControlCharacters: String {
        guard unicodeScalars.contains(where: \.isUnsafeForDisplay) else { return self }
        var out = ""
        for scalar in unicodeScalars {
            guard scalar.isUnsafeForDisplay else {
                out.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case "\u{1B}": out += "\\e"
            default: out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            }
        }
        return out
    }
}

/// Why a string cannot be one path component docsync creates (a docset name, a version used in a name).
package enum PathComponent {
    /// At most this many UTF-8 bytes (NAME_MAX).
    package static let maxBytes = 255

    /// The problem, or nil when `text` is one safe component: not empty, not `.` / `..`, no `/`, no NUL, no
    /// control character (C0, DEL, C1), at most 255 UTF-8 bytes.
    package static func problem(_ text: String) -> String? {
        if text.isEmpty { return "empty" }
        if text == "." || text == ".." { return "'\(text)' is not a folder name" }
        if text.utf8.contains(0) { return "contains NUL" }
        if text.contains("/") { return "contains '/'" }
        if text.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) {
            return "contains control characters"
        }
        if text.utf8.count > maxBytes { return "longer than \(maxBytes) bytes (UTF-8)" }
        return nil
    }
}
