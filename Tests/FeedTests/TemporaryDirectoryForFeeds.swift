import Foundation
import TestSupport

/// A `TemporaryDirectory` that feed tests write documents into.
struct TemporaryDirectoryForFeeds {
    let directory: TemporaryDirectory

    init() throws { directory = try TemporaryDirectory("docsync-feed-test") }

    var path: String { directory.path }

    /// Writes `text` to `name` inside the directory and returns the file's path.
    @discardableResult
    func write(_ name: String, _ text: String) -> String {
        write(name, bytes: Array(text.utf8))
    }

    @discardableResult
    func write(_ name: String, bytes: [UInt8]) -> String {
        let path = directory.appending(name)
        let created = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        precondition(created, "cannot write \(path)")
        return path
    }

    func remove() { directory.remove() }
}
