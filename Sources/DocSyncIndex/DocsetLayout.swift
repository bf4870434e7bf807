#if canImport(Glibc)
    import Glibc
#endif

/// Which document folders a docset has under `Contents/Resources`, as `EntryResolver` needs them:
///
/// - Dash (Kapeli): `Documents/`, index paths relative to it;
/// - Apple's `docsetutil` (CUPS's XAR docset): `Documentation/`, beside `Documents/` or instead of it, with Core
///   Data `ZFILEPATH` paths relative to `Contents/Resources` (`Documentation/help/api-cups.html`);
/// - what docsync adds at install for Zeal (`ReaderLayoutPreparation`): `Documents/Documentation ->
///   ../Documentation`, or `Documents -> Documentation`.
package struct DocsetLayout: Sendable, Equatable {
    /// What is at one path (never followed when it is a link).
    package enum Node: Sendable, Equatable {
        case absent
        case directory
        case link
    }

    /// `Contents/Resources/Documents`.
    package var documents: Node
    /// `Contents/Resources/Documentation`.
    package var documentation: Node
    /// `Contents/Resources/Documents/Documentation`.
    package var documentsDocumentation: Node

    package init(documents: Node, documentation: Node = .absent, documentsDocumentation: Node = .absent) {
        self.documents = documents
        self.documentation = documentation
        self.documentsDocumentation = documentsDocumentation
    }

    /// A Dash docset: `Documents/` only.
    package static let dash = DocsetLayout(documents: .directory)

    /// The layout of the docset folder `docsetPath` (the folder itself may be reached through a link; nothing
    /// below it is followed). A missing folder reads as the Dash layout.
    package static func read(docsetPath: String) -> DocsetLayout {
        let resources = open(
            "\(docsetPath)/Contents/Resources", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard resources >= 0 else { return .dash }
        defer { close(resources) }
        return read(resources: resources)
    }

    /// The layout below the open `Contents/Resources` folder `resources`.
    package static func read(resources: Int32) -> DocsetLayout {
        func node(_ dir: Int32, _ name: String) -> Node {
            var st = stat()
            guard fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) == 0 else { return .absent }
            switch st.st_mode & S_IFMT {
            case S_IFDIR: return .directory
            case S_IFLNK: return .link
            default: return .absent
            }
        }
        var layout = DocsetLayout(
            documents: node(resources, "Documents"), documentation: node(resources, "Documentation"))
        if layout.documents == .directory {
            let documents = openat(resources, "Documents", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            if documents >= 0 {
                layout.documentsDocumentation = node(documents, "Documentation")
                close(documents)
            }
        }
        return layout
    }
}
