extension String {
    /// This string with every Unicode scalar that `replacement` maps to a string replaced by it (nil keeps the
    /// scalar): the one loop behind the escapers of each output grammar (HTML text, the access log's
    /// nginx-style `\xHH`); JSON strings have their own faster path (`JSONText`).
    package func replacingScalars(_ replacement: (Unicode.Scalar) -> String?) -> String {
        var out = ""
        out.reserveCapacity(utf8.count)
        for scalar in unicodeScalars {
            if let text = replacement(scalar) { out += text } else { out.unicodeScalars.append(scalar) }
        }
        return out
    }
}
