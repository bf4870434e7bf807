// Benchmarks/index-bench's docsync side: every query of a file answered in one process, as a backend holding a
// `DocsetIndex` answers them (this was `docsync search --bench-queries`, which is no part of the product).
//
// usage: search-bench-driver [--text] [--warm-up] CONFIG QUERIES [LIMIT]
//   --text: the queries go to the text index (`docsync search --text`), not the name index.
//   --warm-up: answer every query once before the timed pass, printing that first pass's lines with `cold-` before
//   the kind (a user's index is hot while they search; the first pass shows what a query after a pause costs).
//   QUERIES: one `kind<TAB>query` per line. Prints `kind<TAB>microseconds<TAB>hits<TAB>CPU microseconds<TAB>process
//   CPU microseconds` per query (the CPU time of the searching thread: on a loaded machine, what the query cost rather
//   than how long it waited for a core; and of the whole process, with the pool's threads a split search also ran
//   on), then one line `#memory<TAB>VmHWM<TAB>peak RssAnon<TAB>RssFile at the end` (KiB): the peak RSS, and
//   the anonymous memory (what is resident beyond the page cache) sampled after every query.
import DocSync
import DocSyncConfigFile
import Foundation

var arguments = CommandLine.arguments
let fullText = arguments.count > 1 && arguments[1] == "--text"
if fullText { arguments.remove(at: 1) }
let warmUp = arguments.count > 1 && arguments[1] == "--warm-up"
if warmUp { arguments.remove(at: 1) }
guard arguments.count == 3 || arguments.count == 4, let limit = Int(arguments.count == 4 ? arguments[3] : "20") else {
    print("usage: search-bench-driver [--text] [--warm-up] CONFIG QUERIES [LIMIT]")
    exit(64)
}

/// The calling thread's CPU time (user and system), in microseconds; with `CLOCK_PROCESS_CPUTIME_ID`, every thread's.
func threadCPUMicroseconds(_ clock: clockid_t = CLOCK_THREAD_CPUTIME_ID) -> Int {
    var now = timespec()
    clock_gettime(clock, &now)
    return now.tv_sec * 1_000_000 + now.tv_nsec / 1000
}

let index = try SyncEngine(configuration: try DocSyncConfigurationLoader().load(file: arguments[1])).index()
let lines = try String(contentsOfFile: arguments[2], encoding: .utf8).split(separator: "\n")
/// The number of hits `query` finds, by name or (with --text) by page text; -1 when the query failed.
func hits(_ query: String) -> Int {
    if fullText { return (try? index.fullTextSearchBlocking(TextSearchQuery(query, limit: limit)))?.hits.count ?? -1 }
    return index.searchBlocking(SearchQuery(query, limit: limit)).hits.count
}

/// `/proc/self/status`'s field `name` in KiB (0 when missing).
func statusKiB(_ name: String) -> Int {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name + ":") }) else { return 0 }
    return Int(line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first ?? "") ?? 0
}

_ = hits("warm-up")
var peakAnonymous = statusKiB("RssAnon")
var output = ""
for pass in warmUp ? ["cold-", ""] : [""] {
    for line in lines {
        let fields = line.split(separator: "\t", maxSplits: 1)
        guard fields.count == 2 else { continue }
        let start = ContinuousClock.now
        let cpuStart = threadCPUMicroseconds()
        let processStart = threadCPUMicroseconds(CLOCK_PROCESS_CPUTIME_ID)
        let count = hits(String(fields[1]))
        let cpu = threadCPUMicroseconds() - cpuStart
        let processCPU = threadCPUMicroseconds(CLOCK_PROCESS_CPUTIME_ID) - processStart
        let elapsed = (ContinuousClock.now - start) / .microseconds(1)
        output += "\(pass)\(fields[0])\t\(Int(elapsed))\t\(count)\t\(cpu)\t\(processCPU)\n"
        peakAnonymous = max(peakAnonymous, statusKiB("RssAnon"))
    }
}
output += "#memory\t\(statusKiB("VmHWM"))\t\(peakAnonymous)\t\(statusKiB("RssFile"))\n"
FileHandle.standardOutput.write(Data(output.utf8))
