/// Credentials never leave the configuration file and the request itself: every URL docsync prints or stores goes
/// through `redactingCredentials`.
///
/// - The password of a URL's userinfo (`https://user:secret@host/…`) becomes `***` (the user name is kept, it
///   tells which account was used).
/// - The values of query parameters that conventionally carry secrets (`token`, `access_token`, `api_key`,
///   `apikey`, `key`, `password`, `secret`, `auth`, `signature`, `sig`, `X-Amz-Signature`, `X-Amz-Credential`,
///   `X-Amz-Security-Token`; names compared case-insensitively) become `***`.
/// Works on free text too (an error message quoting a URL): every `scheme://` in it is treated.
extension String {
    package static let secretQueryNames: Set<String> = [
        "token", "access_token", "api_key", "apikey", "key", "password", "passwd", "secret", "auth", "signature",
        "sig", "x-amz-signature", "x-amz-credential", "x-amz-security-token",
    ]

    package var redactingCredentials: String {
        // Nothing to redact without a userinfo's `@` or a query's `?` `&` `;` (every installed docset's URLs, read
        // on every run, are redacted: most have none).
        guard
            utf8.contains(where: {
                $0 == UInt8(ascii: "@") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: ";")
            }),
            indexAfterSchemeSeparator != nil
        else { return self }
        var scalars = Array(unicodeScalars)
        var index = 0
        while index + 2 < scalars.count {
            guard scalars[index] == ":", scalars[index + 1] == "/", scalars[index + 2] == "/" else {
                index += 1
                continue
            }
            let authorityStart = index + 3
            var end = authorityStart
            while end < scalars.count, !Self.endsAuthority(scalars[end]) { end += 1 }
            if let at = scalars[authorityStart..<end].lastIndex(of: "@"),
                let colon = scalars[authorityStart..<at].firstIndex(of: ":")
            {
                scalars.replaceSubrange((colon + 1)..<at, with: "***".unicodeScalars)
                end = colon + 1 + 3 + (end - at)
            }
            var cursor = end
            while cursor < scalars.count, !Self.endsURL(scalars[cursor]) {
                if scalars[cursor] == "?" || scalars[cursor] == "&" || scalars[cursor] == ";" {
                    cursor = Self.redactParameter(in: &scalars, from: cursor + 1)
                } else {
                    cursor += 1
                }
            }
            index = cursor
        }
        var out = String.UnicodeScalarView()
        out.append(contentsOf: scalars)
        return String(out)
    }

    /// Redacts the value of the parameter starting at `start` when its name is a secret's; returns where it ends.
    private static func redactParameter(in scalars: inout [Unicode.Scalar], from start: Int) -> Int {
        var cursor = start
        while cursor < scalars.count, scalars[cursor] != "=", !endsParameter(scalars[cursor]) { cursor += 1 }
        guard cursor < scalars.count, scalars[cursor] == "=" else { return cursor }
        var name = String.UnicodeScalarView()
        name.append(contentsOf: scalars[start..<cursor])
        let valueStart = cursor + 1
        var valueEnd = valueStart
        while valueEnd < scalars.count, !endsParameter(scalars[valueEnd]) { valueEnd += 1 }
        guard secretQueryNames.contains(String(name).lowercased()), valueEnd > valueStart else { return valueEnd }
        scalars.replaceSubrange(valueStart..<valueEnd, with: "***".unicodeScalars)
        return valueStart + 3
    }

    private static func endsAuthority(_ c: Unicode.Scalar) -> Bool { "/?#".unicodeScalars.contains(c) || endsURL(c) }
    private static func endsParameter(_ c: Unicode.Scalar) -> Bool { "&;#".unicodeScalars.contains(c) || endsURL(c) }
    private static func endsURL(_ c: Unicode.Scalar) -> Bool {
        c.value <= 0x20 || "\"'<>`)]}".unicodeScalars.contains(c) || c.value == 0x7F
    }
}
