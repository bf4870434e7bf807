/// A configuration file that cannot be used, naming the file, the key and what is wrong.
public struct ConfigurationError: Error, Equatable, Sendable, CustomStringConvertible {
    public let file: String
    /// Dotted key path, e.g. `network.retries` or `feed[2].url`; empty for syntax errors.
    public let key: String
    public let problem: String

    public init(file: String, key: String, problem: String) {
        self.file = file
        self.key = key
        self.problem = problem
    }

    public var description: String { key.isEmpty ? "\(file): \(problem)" : "\(file): \(key): \(problem)" }
}
