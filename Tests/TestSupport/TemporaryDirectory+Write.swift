import Foundation

extension TemporaryDirectory {
    /// Writes `text` to `name` inside the directory and returns the file's path.
    @discardableResult
    package func write(_ name: String, _ text: String) -> String {
        write(name, bytes: Array(text.utf8))
    }

    /// Writes `bytes` to `name` inside the directory and returns the file's path.
    @discardableResult
    package func write(_ name: String, bytes: [UInt8]) -> String {
        let path = appending(name)
        let created = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        precondition(created, "cannot write \(path)")
        return path
    }
}
