import DocSyncSupport

/// File-system-safe staging names: a readable, sanitised prefix of the key plus a hash of the whole key, so
/// different keys never share a partial and a key full of `/` or `?` cannot escape the staging directory.
package enum StagingName {
    package static func forKey(_ key: String) -> String {
        let readable = key.unicodeScalars.map { scalar -> Character in
            let c = Character(scalar)
            return scalar.isASCII && (c.isLetter || c.isNumber || c == "-" || c == "_" || c == ".") ? c : "_"
        }
        let prefix = String(readable.suffix(48)).trimmingLeadingDots()
        let digest = SHA256.hash(Array(key.utf8)).description.prefix(16)
        return prefix.isEmpty ? String(digest) : "\(prefix)-\(digest)"
    }
}

extension String {
    fileprivate func trimmingLeadingDots() -> String { String(drop { $0 == "." || $0 == "_" }) }
}
