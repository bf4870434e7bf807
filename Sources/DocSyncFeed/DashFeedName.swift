import Foundation

/// The docset name of a Dash feed: the stem of the feed's URL or file name (`C++.xml` → `C++`,
/// `Android_(Kotlin).xml` → `Android_(Kotlin)`, `.../C%2B%2B.xml` → `C++`). Pure.
enum DashFeedName {
    /// The name from `documentURL`'s last path segment, else from `path`'s last component; nil if both are empty.
    static func name(documentURL: String?, path: String?) -> String? {
        if let documentURL, let stem = stem(ofURL: documentURL) { return stem }
        if let path, let stem = stem(ofLastComponent: Substring(path)) { return stem }
        return nil
    }

    static func stem(ofURL url: String) -> String? {
        var rest = Substring(url)
        if let cut = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) { rest = rest[..<cut] }
        if let scheme = rest.range(of: "://") {
            let afterAuthority = rest[scheme.upperBound...]
            guard let slash = afterAuthority.firstIndex(of: "/") else { return nil }
            rest = afterAuthority[slash...]
        }
        return stem(ofLastComponent: rest).map { $0.removingPercentEncoding ?? $0 }
    }

    private static func stem(ofLastComponent path: Substring) -> String? {
        let last = path.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
        guard !last.isEmpty else { return nil }
        let stem = last.hasSuffix(".xml") ? last.dropLast(4) : last
        return stem.isEmpty ? nil : String(stem)
    }
}
