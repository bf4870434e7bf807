import DocSync
import Testing

/// Every public error of the library is compared by kind (`error.kind == .invalidQuery`) with `import DocSync`
/// alone; a kind's description is its stable machine-readable name.
@Suite(.timeLimit(.minutes(5))) struct ErrorKindTests {
    @Test func kindsCompareAndNameThemselves() {
        let query = DocsetIndexError.invalidQuery("limit 0 is not in 1…1000")
        #expect(query.kind == .invalidQuery && query.kind != .io && "\(query.kind)" == "invalid_query")
        #expect(DocsetIndexError.notInstalled(["Nope"]).kind == .notInstalled)
        #expect(DocsetIndexError.unknownKeyword(["zz"], known: []).kind == .unknownKeyword)
        #expect(DocsetIndexError.io("C", "EIO").kind == .io)
        #expect(DocumentError.notFound.kind == .notFound && "\(DocumentError.outsideDocset.kind)" == "outside_docset")
        #expect(SyncError.busy.kind == .busy && "\(SyncError.exclusionUnavailable.kind)" == "lock_unavailable")
        #expect(FeedParseError.unavailable.kind == .unavailable && "\(FeedParseError.invalidFeed.kind)" == "invalid_feed")
        #expect(SyncExclusionError.busy.kind == .busy && SyncExclusionError.unavailable.kind != .busy)
        #expect(DocSyncConfigurationError.unknownKey.kind == .unknownKey)
        #expect("\(DocSyncConfigurationError.missingValue.kind)" == "missing_value")
        let failure = SyncFailure(code: .http, message: "404")
        #expect(failure.kind == .http && "\(failure.kind)" == "http")
        #expect(ChangeLogError.Kind.expiredCursor != .unknownCursor)
    }
}
