/// How the text index names a tarix store's pages: as the extracted layout's readers reach them through
/// `Contents/Resources/Documents/` and the links docsync makes there for Apple's layout (`ReaderLayoutPreparation`),
/// which a store cannot hold. A page under `Documents/` is named relative to it; one under Apple's `Documentation/`
/// is `Documentation/…` when the store also has `Documents/` or the index's paths start `Documentation/` (CUPS's
/// Core Data paths, relative to `Contents/Resources`), else relative to `Documentation/` (which then stands for
/// `Documents/`); a page the extracted layout would not reach (Apple's beside a `Documents/` of an index without the
/// prefix) is left out. `TarixDocuments` reads those names back.
package struct TarixPageNaming: Equatable {
    package static let documents = "Contents/Resources/Documents/"
    package static let documentation = "Contents/Resources/Documentation/"

    package var hasDocuments: Bool
    package var indexIsPrefixed: Bool

    package init(hasDocuments: Bool, indexIsPrefixed: Bool) {
        self.hasDocuments = hasDocuments
        self.indexIsPrefixed = indexIsPrefixed
    }

    /// The page of a store path (relative to the docset folder), nil when no reader reaches it.
    package func page(of path: String) -> String? {
        if path.hasPrefix(Self.documents) { return String(path.dropFirst(Self.documents.count)) }
        guard path.hasPrefix(Self.documentation) else { return nil }
        let rest = path.dropFirst(Self.documentation.count)
        if indexIsPrefixed { return "Documentation/" + rest }
        return hasDocuments ? nil : String(rest)
    }
}
