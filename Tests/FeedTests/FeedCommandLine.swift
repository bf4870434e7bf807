import Foundation
import TestSupport

/// Runs the real `docsync` executable, built beside this test bundle.
enum FeedCommandLine {
    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// The package's `Feeds/` folder.
    static let feedsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Feeds").standardizedFileURL.path

    static func run(_ arguments: [String]) throws -> Result {
        let result = try Tool.run(Tool.docsyncBinary, arguments)
        return Result(status: result.status, stdout: result.standardOutput, stderr: result.standardError)
    }
}
