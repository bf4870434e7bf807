import DocSyncCLI
import DocSyncDownload
import Testing

@Suite(.timeLimit(.minutes(5))) struct ProgressRendererTests {
    @Test func drawsBarPercentRateAndETA() {
        let progress = DownloadProgress(bytes: 250 << 20, total: 500 << 20, rate: Double(50 << 20))
        let line = ProgressRenderer.line(label: "docset.tgz", progress: progress, columns: 100)
        #expect(line.hasPrefix("docset.tgz  ["))
        #expect(line.contains("50%"))
        #expect(line.contains("250.0 MiB / 500.0 MiB"))
        #expect(line.contains("50.0 MiB/s"))
        #expect(line.hasSuffix("ETA 0:05"))
        #expect(line.count <= 100)
    }

    @Test func unknownTotalHasNoBarAndNoETA() {
        let line = ProgressRenderer.line(
            label: "x", progress: DownloadProgress(bytes: 1536, total: nil, rate: 1024), columns: 80)
        #expect(!line.contains("[") && !line.contains("ETA"))
        #expect(line.contains("1.5 KiB") && line.contains("1.0 KiB/s"))
    }

    @Test func narrowTerminalsGetAShortLine() {
        let progress = DownloadProgress(bytes: 1, total: 2, rate: 1)
        #expect(
            ProgressRenderer.line(label: "a-very-long-file-name-indeed.tgz", progress: progress, columns: 30).count < 30
        )
    }
}
