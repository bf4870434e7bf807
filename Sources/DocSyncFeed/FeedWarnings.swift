/// What a parse dropped instead of failing (an unreadable date), collected while one document is read.
/// Used by one parse on one thread only.
final class FeedWarnings {
    private(set) var items: [String] = []

    func add(_ warning: String) {
        if items.count < 100 { items.append(warning) }
    }
}
