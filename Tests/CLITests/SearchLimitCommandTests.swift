import DocSync
import Foundation
import TestSupport
import Testing

/// `docsync search --limit` passes through the library's validation: out of range is a usage error naming the
/// range, not a crash (a limit of Int.max used to trap), and the largest accepted limit works.
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct SearchLimitCommandTests {
    @Test func anOutOfRangeLimitIsAUsageError() async throws {
        let h = try ReaderHarness()
        defer { h.remove() }
        try await h.install("A", version: "1", fixture: try DocsetFixture.make(version: "1", indexRows: 4))
        for limit in ["10001", "\(Int.max)", "-1"] {
            let run = try Tool.run(Tool.docsyncBinary, ["search", "sym", "--limit=\(limit)", "--config", h.configPath])
            #expect(run.status == 64, "--limit \(limit): \(run.standardError)")
            #expect(run.standardError.contains("--limit must be 1 to 10000, not \(limit)"), "\(run.standardError)")
        }
        let run = try Tool.run(Tool.docsyncBinary, ["search", "sym", "--limit", "10000", "--config", h.configPath])
        #expect(run.status == 0 && run.standardOutput.components(separatedBy: "name = ").count == 5, "\(run)")
    }
}
