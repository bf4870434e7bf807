import Foundation

/// A fresh directory under the system temp dir, removed by `remove()` (tests call it in `defer`).
public struct TemporaryDirectory: Sendable {
    public let path: String

    public init(_ label: String = "docsync-test") throws {
        let base = FileManager.default.temporaryDirectory.path
        let path = "\(base)/\(label)-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        self.path = path
    }

    public func appending(_ component: String) -> String { "\(path)/\(component)" }

    public func remove() { try? FileManager.default.removeItem(atPath: path) }
}
