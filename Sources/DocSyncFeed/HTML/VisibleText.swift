import DocSyncSupport

/// A page's visible text, as a reader sees it: the title apart, the body's text with `script`, `style` and
/// `template` left out, entities decoded, whitespace runs folded to one space, and a line break wherever a block
/// starts or ends (`<p>a</p><p>b</p>` reads "a\nb", `a<b>b</b>` reads "ab").
package struct VisibleText: Sendable, Equatable {
    /// The `<title>`'s text (empty when the page has none).
    package var title: String
    /// The visible text of the body.
    package var body: String
    /// True when the body was cut at ``VisibleTextLimits/maximumTextBytes``.
    package var truncated: Bool

    package init(title: String, body: String, truncated: Bool = false) {
        self.title = title
        self.body = body
        self.truncated = truncated
    }
}

/// How much of hostile HTML is read (bounded memory and time whatever the page holds).
package struct VisibleTextLimits: Sendable {
    /// A page larger than this is not parsed (``VisibleTextError``: skipped with a warning naming it).
    package var maximumPageBytes = 32 << 20
    /// The body's text is cut here (UTF-8 bytes); parsing stops there.
    package var maximumTextBytes = 2 << 20
    /// The title is cut here.
    package var maximumTitleBytes = 4 << 10

    package init() {}
}

/// Why a page's text was not read.
package struct VisibleTextError: Error, Sendable, Equatable, CustomStringConvertible {
    private enum Code: Sendable, Equatable { case tooLarge, parser, library }
    private init(code: Code, message: String) {
        self.code = code
        self.message = message
    }
    private let code: Code
    /// What went wrong, for a warning naming the page.
    package let message: String

    /// A page over ``VisibleTextLimits/maximumPageBytes``.
    package static func tooLarge(_ size: Int, limit: Int) -> VisibleTextError {
        VisibleTextError(code: .tooLarge, message: "\(size) bytes of HTML is more than the \(limit) read for its text")
    }
    /// libxml2 could not start a parser.
    package static let parser = VisibleTextError(code: .parser, message: "libxml2 could not create an HTML parser")
    /// libxml2 could not be loaded (CLibXML2).
    package static func libraryUnavailable(_ error: LibraryUnavailable) -> VisibleTextError {
        VisibleTextError(code: .library, message: error.description)
    }

    /// libxml2 could not be loaded: no page can be read, through no fault of the page.
    package var isLibraryUnavailable: Bool { code == .library }

    /// Same kind (the message is not compared).
    package static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
    package var description: String { message }
}
