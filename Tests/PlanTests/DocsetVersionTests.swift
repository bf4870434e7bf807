import DocSync
import Testing

@Suite(.timeLimit(.minutes(5))) struct DocsetVersionTests {
    /// (older, newer): each row is one rule of the documented order.
    @Test(arguments: [
        ("2.1.9", "2.2.0", "numbers compare numerically per segment"),
        ("9", "10", "10 is newer than 9, not lexicographically older"),
        ("10.1", "10.10", "10.10 is newer than 10.1"),
        ("2.0", "2.0.1", "an extra number segment is newer"),
        ("2.0-rc1", "2.0", "a word after the common part is a pre-release"),
        ("2.0b", "2.0", "a letter suffix is a pre-release"),
        ("2.beta", "2.1", "a number beats a word in the same place"),
        ("SE25", "SE26", "word then number"),
        ("12.x", "13.x", "Dash's 13.x"),
        ("13.x/1", "13.x/2", "same version: the revision decides"),
        ("/8", "/9", "revision-only feeds compare by revision"),
        ("/1.35", "/2", "non-integer revision"),
        ("/9", "1.0", "an empty version is lower than any version"),
        ("13.x", "13.x/1", "a missing revision is the lowest"),
        ("6.6 (legacy)", "6.6 (modern)", "free-form words compare alphabetically"),
        ("v1.9", "V1.10", "words ignore case"),
    ])
    func order(older: String, newer: String, rule: String) {
        let a = DocsetVersion(dash: older)
        let b = DocsetVersion(dash: newer)
        #expect(a < b, "\(rule): \(older) < \(newer)")
        #expect(!(b < a), "\(rule): not \(newer) < \(older)")
        #expect(a != b)
    }

    @Test(arguments: [
        ("2.2", "2.2.0"), ("02.1", "2.1"), ("1.0 (modern)", "1.0-MODERN"), ("13.x/2", "13.x/2"),
    ])
    func equal(lhs: String, rhs: String) {
        #expect(DocsetVersion(dash: lhs) == DocsetVersion(dash: rhs))
        #expect(DocsetVersion(dash: lhs).hashValue == DocsetVersion(dash: rhs).hashValue)
    }

    @Test(arguments: [
        ("13.x/2", "13.x", "2"), ("/9", "", "9"), ("/1.35", "", "1.35"), ("SE26", "SE26", ""), ("a/b/3", "a/b", "3"),
    ])
    func dashSplit(text: String, version: String, revision: String) {
        let v = DocsetVersion(dash: text)
        #expect(v.version == version && v.revision == revision)
        #expect(v.description == text)
    }

    @Test func sortingPicksTheNewest() {
        let versions = ["2.2.0", "10.1", "2.10", "2.2", "10.1-beta"].map { DocsetVersion(version: $0) }
        #expect(versions.max()?.version == "10.1")
    }
}
