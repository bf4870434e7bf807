import DocSync
import Foundation
import TestSupport
import Testing

/// `SyncEvent`'s JSON: a golden file per event kind (encode == golden, decode(golden) == value), snake_case keys
/// and `"schema": 1` everywhere, and the real `docsync sync --json` output decoding back into events.
/// Run with `DOCSYNC_UPDATE_GOLDEN=1` to rewrite the golden files after a deliberate change (then review the diff).
@Suite(
    .enabled(if: Nginx.isInstalled, "nginx is not installed (scripts/bootstrap installs it)"),
    .timeLimit(.minutes(10)), .blockingWaits)
struct SyncEventJSONTests {
    static let goldenDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "Golden")

    static func golden(_ kind: String) -> URL { goldenDirectory.appendingPathComponent("\(kind).json") }

    @Test(arguments: SyncEventSamples.all)
    func encodesToItsGoldenFileAndBack(_ event: SyncEvent) throws {
        let line = event.jsonLine()
        if ProcessInfo.processInfo.environment["DOCSYNC_UPDATE_GOLDEN"] == "1" {
            try (line + "\n").write(to: Self.golden(event.kind), atomically: true, encoding: .utf8)
        }
        let golden = try String(contentsOf: Self.golden(event.kind), encoding: .utf8)
        #expect(line + "\n" == golden, "\(event.kind): the JSON changed; if on purpose, update the golden file")
        let decoded = try DocSyncJSON.decoder().decode(SyncEvent.self, from: Data(golden.utf8))
        #expect(decoded == event)
    }

    @Test func everyKindHasOneGoldenFileAndNoOther() throws {
        let kinds = Set(SyncEventSamples.all.map(\.kind))
        #expect(kinds.count == SyncEventSamples.all.count, "one sample per kind")
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.goldenDirectory.path)
        #expect(Set(files) == Set(kinds.map { "\($0).json" }))
    }

    @Test(arguments: SyncEventSamples.all)
    func everyObjectHasSchemaOneAndSnakeCaseKeys(_ event: SyncEvent) throws {
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(event.jsonLine().utf8)) as? [String: Any])
        #expect(object["schema"] as? Int == 1)
        #expect(object["event"] as? String == event.kind)
        let keys = Self.keys(object)
        #expect(keys.allSatisfy(Self.isSnakeCase), "not snake_case: \(keys.filter { !Self.isSnakeCase($0) })")
    }

    @Test func anUnknownEventIsADecodingErrorNamingIt() {
        #expect {
            try DocSyncJSON.decoder().decode(SyncEvent.self, from: Data(#"{"event":"exploded","schema":1}"#.utf8))
        } throws: { "\($0)".contains("exploded") }
    }

    @Test func theCLIPrintsEventsThatDecodeBack() async throws {
        let h = try SyncHarness()
        try h.publishArchive(try DocsetFixture.make(version: "1"), as: "A.tgz", folder: "A")
        try h.writeAtomFeed("f.atom", [.init(identifier: "org.a", title: "A", version: "1", archive: "A.tgz")])
        try h.writeConfig(feeds: ["f.atom", "absent.atom"])
        let result = try h.run(["sync", "--json"])
        let lines = result.standardOutput.split(separator: "\n")
        let events = try lines.map { try DocSyncJSON.decoder().decode(SyncEvent.self, from: Data($0.utf8)) }
        #expect(events.map { $0.jsonLine() } == lines.map(String.init), "re-encoding gives the same bytes")
        #expect(events.contains { if case .installed(let d) = $0 { d.name == "A" && d.version == "1" } else { false } })
        let failure = events.compactMap { if case .feedFailed(_, let f) = $0 { f } else { nil } }.first
        #expect(failure?.code == .http && failure?.httpStatus == 404, "\(String(describing: failure))")
        #expect(failure?.url?.hasSuffix("absent.atom") == true && failure?.message.contains("404") == false)
        guard case .summary(let summary) = events.last else {
            Issue.record("the last event is the summary: \(result.standardOutput)")
            return
        }
        #expect(summary.installed == 1 && summary.feedsFailed == 1)
    }

    static func keys(_ value: Any) -> [String] {
        if let object = value as? [String: Any] { return object.keys + object.values.flatMap(keys) }
        if let array = value as? [Any] { return array.flatMap(keys) }
        return []
    }

    static func isSnakeCase(_ key: String) -> Bool {
        !key.isEmpty
            && key.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
    }
}
