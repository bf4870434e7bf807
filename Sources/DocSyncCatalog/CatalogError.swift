/// A catalogue that cannot be used: names the catalogue (URL or path) and what is wrong with it.
package struct CatalogError: Error, Sendable, Equatable, CustomStringConvertible {
    private enum Code: Sendable, Equatable {
        case notJSON(String)
        case unexpectedShape(String)
    }

    private let code: Code
    /// The catalogue's URL or path (`<memory>` when parsed from bytes without one).
    package let catalog: String

    private init(_ code: Code, catalog: String) {
        self.code = code
        self.catalog = catalog
    }

    /// The body is not JSON (e.g. an HTML error page).
    package static func notJSON(_ catalog: String, detail: String) -> Self { .init(.notJSON(detail), catalog: catalog) }

    /// JSON, but not in the catalogue's format.
    package static func unexpectedShape(_ catalog: String, detail: String) -> Self {
        .init(.unexpectedShape(detail), catalog: catalog)
    }

    package var description: String {
        switch code {
        case .notJSON(let detail): "\(catalog): not a JSON catalogue (\(detail))"
        case .unexpectedShape(let detail): "\(catalog): unexpected catalogue format: \(detail)"
        }
    }
}
