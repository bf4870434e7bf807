/// What the next request asks for.
package enum RequestPlan: Sendable, Equatable {
    /// P == L: everything is durable; verify and finalize without asking the server.
    case finalize
    /// A plain GET from byte 0; `discardPartial` when bytes the journal vouches for must be thrown away first.
    case fresh(discardPartial: Bool)
    /// `Range: bytes=from-`, with `If-Range` when a strong validator is known.
    case range(from: Int64, ifRange: String?)

    /// The request headers this plan sends (besides libcurl's own).
    package var headers: [String] {
        switch self {
        case .finalize: []
        case .fresh: ["Accept-Encoding: identity"]
        case .range(let from, let ifRange):
            ["Range: bytes=\(from)-"] + (ifRange.map { ["If-Range: \($0)"] } ?? []) + ["Accept-Encoding: identity"]
        }
    }

    package var isRange: Bool {
        if case .range = self { return true }
        return false
    }
}

/// Decides the next request from the resume state alone (checklist section B).
package enum RequestPolicy {
    package static func plan(_ state: ResumeState) -> RequestPlan {
        let p = state.committed
        if let length = state.length, p == length { return .finalize }  // B20
        if p == 0 { return .fresh(discardPartial: false) }  // B19
        guard let length = state.length, p < length else { return .fresh(discardPartial: true) }  // E48: no L
        let ifRange = state.validator.ifRange  // B16: never a weak ETag
        if ifRange == nil, !state.digestKnown { return .fresh(discardPartial: true) }  // B17
        return .range(from: p - min(state.overlap, p), ifRange: ifRange)  // B15, B18, B21: one open range
    }
}
