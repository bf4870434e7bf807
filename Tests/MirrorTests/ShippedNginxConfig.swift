import Foundation

/// `config/nginx-mirror.conf` as shipped, cut into what the test harness's nginx takes (http-level directives and
/// a server's body), with the operator's CHANGE values replaced by the test's ports and folders. The tests run the
/// shipped directives, so the config cannot rot.
struct ShippedNginxConfig {
    let text: String

    init(sourceFile: String = #filePath) throws {
        var url = URL(fileURLWithPath: sourceFile)
        while url.path != "/", !FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path)
        {
            url.deleteLastPathComponent()
        }
        text = try String(contentsOfFile: url.appendingPathComponent("config/nginx-mirror.conf").path, encoding: .utf8)
    }

    /// The mirror tier's server body (root, listen and server_name are the harness's).
    var mirrorLocations: String { Self.serverBody(part(1)) }

    /// The caching tier: its http-level directives (cache path, upstream) and server body.
    func cachingTier(mirrorPort: UInt16, cacheDirectory: String) -> (http: String, locations: String) {
        let text = part(2).replacingOccurrences(of: "127.0.0.1:8080", with: "127.0.0.1:\(mirrorPort)")
            .replacingOccurrences(of: "/var/cache/nginx/docsync", with: cacheDirectory)
        guard let server = text.range(of: "\nserver {") else { return (text, "") }
        return (
            Self.stripComments(String(text[..<server.lowerBound])), Self.serverBody(String(text[server.lowerBound...]))
        )
    }

    private func part(_ number: Int) -> String {
        let parts = text.components(separatedBy: "# ---- ")
        let found = parts.first { $0.hasPrefix("\(number).") } ?? ""
        return String(found.drop { $0 != "\n" })  // without the heading's line
    }

    private static func stripComments(_ text: String) -> String {
        text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("#") }
            .map { String($0.split(separator: "#", maxSplits: 1).first ?? "") }.joined(separator: "\n")
    }

    /// The lines inside the first `server { … }`, without listen, server_name and root.
    private static func serverBody(_ text: String) -> String {
        guard let start = text.range(of: "server {") else { return "" }
        var depth = 1
        var body = ""
        for character in text[start.upperBound...] {
            if character == "{" { depth += 1 }
            if character == "}" { depth -= 1 }
            if depth == 0 { break }
            body.append(character)
        }
        return stripComments(body).split(separator: "\n").filter {
            let line = $0.trimmingCharacters(in: .whitespaces)
            return !line.hasPrefix("listen ") && !line.hasPrefix("server_name ") && !line.hasPrefix("root ")
        }.joined(separator: "\n")
    }
}
