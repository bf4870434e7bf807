import Foundation

/// The samples of a Prometheus text file as the metrics tests read it: `name{labels}` → value (comments skipped).
package enum MetricsSamples {
    /// A sample line that is not `name value`.
    package struct Malformed: Error, CustomStringConvertible {
        package let line: String
        package var description: String { "metrics sample line does not parse: \(line)" }
    }

    /// Every sample line of the file at `path`; throws ``Malformed`` for a line that does not parse.
    package static func parse(_ path: String) throws -> [String: Double] {
        var samples: [String: Double] = [:]
        let text = try String(contentsOfFile: path, encoding: .utf8)
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let parts = line.split(separator: " ")
            guard parts.count == 2, let value = Double(parts[1]) else { throw Malformed(line: String(line)) }
            samples[String(parts[0])] = value
        }
        return samples
    }
}
