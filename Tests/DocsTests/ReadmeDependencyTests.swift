import Foundation
import Testing

/// The dependency lines the DocC articles show are ones that work with this package: a path dependency whose
/// folder name is the package's identity, naming a library product Package.swift declares; no placeholder URL.
/// (Resolving a consumer package with these lines, `swift package show-dependencies`, takes minutes of cloning;
/// this checks what such a resolution checks: the identity and the product name.)
@Suite(.timeLimit(.minutes(5))) struct ReadmeDependencyTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..")

    static func text(_ path: String) throws -> String {
        try String(contentsOf: repository.appendingPathComponent(path), encoding: .utf8)
    }

    static func firstMatch(_ pattern: String, in text: String) -> String? {
        guard let regex = try? NSRegularExpression(pattern: pattern),
            let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
            match.numberOfRanges > 1,
            let range = Range(match.range(at: 1), in: text)
        else { return nil }
        return String(text[range])
    }

    @Test(arguments: [
        "Sources/DocSync/DocSync.docc/UsingTheLibrary.md", "Sources/DocSync/DocSync.docc/GettingStarted.md",
    ])
    func dependencyLineNamesThisPackage(_ document: String) throws {
        let manifest = try Self.text("Package.swift")
        let text = try Self.text(document)
        #expect(!text.contains("git.example.org"), "\(document) still has a placeholder URL")
        let path = try #require(Self.firstMatch(#"\.package\(path: "([^"]+)"\)"#, in: text), "\(document)")
        let identity = (path as NSString).lastPathComponent.lowercased()
        let name = try #require(Self.firstMatch(#"Package\(\s*name: "([^"]+)""#, in: manifest))
        #expect(identity == name.lowercased())
        let product = try #require(
            Self.firstMatch(#"\.product\(name: "([^"]+)", package: "docsync"\)"#, in: text), "\(document)")
        #expect(manifest.contains(".library(name: \"\(product)\""), "Package.swift has no library \(product)")
    }
}
