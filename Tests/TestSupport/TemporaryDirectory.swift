import Foundation

/// A fresh directory under the system temp dir, removed by `remove()` (tests call it in `defer`).
package struct TemporaryDirectory: Sendable {
    package let path: String

    package init(_ label: String = "docsync-test") throws {
        let base = FileManager.default.temporaryDirectory.path
        let path = "\(base)/\(label)-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        self.path = path
    }

    package func appending(_ component: String) -> String { "\(path)/\(component)" }

    package func remove() { try? FileManager.default.removeItem(atPath: path) }
}
