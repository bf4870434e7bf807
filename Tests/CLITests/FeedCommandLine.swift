import Foundation
import TestSupport

/// `docsync feed …` as a user runs it: the real executable, built beside this test bundle.
enum FeedCommandLine {
    /// The package's `Feeds/` folder.
    static let feedsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Feeds").standardizedFileURL.path

    static func run(_ arguments: [String]) throws -> Tool.Result {
        try Tool.run(Tool.docsyncBinary, arguments)
    }
}
