import DocSyncDownload
import DocSyncHTTP
import Testing

/// Archive mirrors that answer 200 with an error page or nothing: a mirror fault (next mirror), never the archive.
@Suite(.timeLimit(.minutes(10))) struct SoftNotFoundTests {
    static func head(_ fields: [(String, String)]) -> HTTPResponseHead {
        HTTPResponseHead(status: 200, statusLine: "HTTP/1.1 200 OK", fields: fields)
    }

    static func context(archive: Bool) -> ResponsePolicy.Context {
        var context = ResponsePolicy.Context(state: ResumeState(), plan: .fresh(discardPartial: false))
        context.rejectsPages = archive
        return context
    }

    @Test(arguments: [
        ([("Content-Type", "text/html; charset=utf-8"), ("Content-Length", "512")], true, false),
        ([("Content-Type", "application/xhtml+xml"), ("Content-Length", "512")], true, false),
        ([("Content-Type", "application/x-gzip"), ("Content-Length", "0")], true, false),
        ([("Content-Type", "application/x-gzip"), ("Content-Length", "512")], true, true),
        ([("Content-Length", "512")], true, true),
        // `docsync fetch` (not an archive download) takes whatever the server sends.
        ([("Content-Type", "text/html"), ("Content-Length", "512")], false, true),
        ([("Content-Length", "0")], false, true),
    ])
    func pagesAndEmptyBodiesGoToTheNextMirror(fields: [(String, String)], archive: Bool, writes: Bool) {
        let decision = ResponsePolicy.decide(Self.head(fields), Self.context(archive: archive))
        if writes {
            #expect(decision.writes, "\(decision)")
        } else {
            guard case .nextAlternate = decision else {
                Issue.record("expected the next mirror, got \(decision)")
                return
            }
        }
    }
}
