/// What to say about a feed location that is neither an http(s) URL nor an existing file: a URL typed without its
/// scheme (`127.0.0.1:8080/x.xml`, `example.org/feed.atom`) is otherwise silently a relative path.
public enum MissingFeedFile {
    /// `no such local file` plus, when the path looks like a URL without its scheme, how to write one.
    public static func reason(_ location: String) -> String {
        looksLikeURL(location)
            ? "no such local file (URLs need http:// or https://, e.g. http://\(hostPart(location)))"
            : "no such local file (feed URLs need http:// or https://)"
    }

    /// A component with a port (`host:8080`) or a host name (`example.org`) before the last component.
    public static func looksLikeURL(_ location: String) -> Bool {
        let components = location.split(separator: "/")
        return components.dropLast().contains { component in
            component.contains(":") || isHostName(component)
        }
    }

    static func isHostName(_ text: Substring) -> Bool {
        let labels = text.split(separator: ".", omittingEmptySubsequences: false)
        return labels.count >= 2 && labels.allSatisfy { label in
            !label.isEmpty && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
        } && labels.last!.allSatisfy(\.isLetter) || labels.count == 4 && labels.allSatisfy { Int($0) != nil }
    }

    /// From the first host-like component on: `/etc/docsync/example.org/f.atom` → `example.org/f.atom`.
    static func hostPart(_ location: String) -> String {
        let components = location.split(separator: "/")
        guard let start = components.firstIndex(where: { $0.contains(":") || isHostName($0) }) else { return location }
        return components[start...].joined(separator: "/")
    }
}
