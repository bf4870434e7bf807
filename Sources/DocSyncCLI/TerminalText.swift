/// Untrusted text (from a catalogue or feed) made safe to print: control characters shown as `\u{…}` escapes.
enum TerminalText {
    static func safe(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if scalar.value < 0x20 || (0x7f...0x9f).contains(scalar.value) {
                out += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
