import Foundation

/// Files that a test's nginx serves and the test rewrites. nginx's ETag is the file's mtime (whole seconds) and size,
/// so a same-size rewrite within one second would keep the validator and a conditional GET would get a stale 304.
/// Each rewrite here gets a modification time strictly later than the previous one's.
package enum ServedFile {
    package static func write(_ text: String, to path: String) throws {
        let previous = (try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate]) as? Date
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        guard let previous else { return }
        let now = Date()
        let stamp = now.timeIntervalSince1970.rounded(.down) > previous.timeIntervalSince1970.rounded(.down)
            ? now : previous.addingTimeInterval(1)
        try FileManager.default.setAttributes([.modificationDate: stamp], ofItemAtPath: path)
    }
}
