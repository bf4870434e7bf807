internal import DocSyncSupport

extension CandidateSelector {
    /// Offers whose name or version is not one safe path component (a `/`, `.`/`..`, control characters, more than
    /// 255 bytes) become skipped entries naming the feed: such text never reaches a file name or a terminal.
    static func refusingUnsafeText(
        _ selected: (offers: [DocsetCandidate], skipped: [SyncPlan.Action]), source: DocSyncConfiguration.FeedSource
    ) -> (offers: [DocsetCandidate], skipped: [SyncPlan.Action]) {
        var offers: [DocsetCandidate] = []
        var skipped = selected.skipped
        for candidate in selected.offers {
            if let problem = problem(with: candidate, source: source) {
                let name = DocsetName.safe(candidate.name)
                skipped.append(.skipped(name: name, feed: source.location, reason: problem))
            } else {
                offers.append(candidate)
            }
        }
        return (offers, skipped)
    }

    private static func problem(with candidate: DocsetCandidate, source: DocSyncConfiguration.FeedSource) -> String? {
        let origin = source.name == nil ? "the feed's name" : "the config key `name`"
        if let problem = PathComponent.problem(candidate.name) {
            return "\(origin) \"\(candidate.name.escapingControlCharacters)\" is not a safe folder name: \(problem)"
        }
        for (label, text) in [("version", candidate.version.version), ("revision", candidate.version.revision)]
        where !text.isEmpty {
            if let problem = PathComponent.problem(text) {
                return
                    "the feed's \(label) \"\(text.escapingControlCharacters)\" is not a safe path component: \(problem)"
            }
        }
        return nil
    }
}
