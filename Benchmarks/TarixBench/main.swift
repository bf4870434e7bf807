// The driver `Benchmarks/tarix-bench` and `Benchmarks/tarix-read-bench` time: DocSyncTarix's builder, verifier and
// reader on real files, with no CLI around them, and the library's document read (`InstalledDocset.contents(of:)`).
//
//   tarix-bench build SOURCE.tgz ARCHIVE INDEX [LEVEL]   build a store (prints mode, seconds, bytes)
//   tarix-bench verify ARCHIVE INDEX                     check an index against its archive (env
//                                                        TARIX_INFLATE_WORKERS: inflating threads, default 2; 0: the
//                                                        walking thread inflates alone, as before the workers)
//   tarix-bench read ARCHIVE INDEX PATHS COUNT           read COUNT documents named in PATHS (one per line, relative
//                                                        to the docset folder) in a seeded shuffled order; prints
//                                                        p50 / p99 / max latency (TARIX_RECORD_INFLATE=isal or
//                                                        zlib: one decoder for every record; default: by length)
//   tarix-bench sample-archive ARCHIVE INDEX PREFIX SAMPLE   read every document named in SAMPLE (one per line,
//                                                        relative to the documents folder), in its order, from one
//                                                        open `TarixArchive` (PREFIX + the line: relative to the
//                                                        docset folder, as `TarixArchive` adds the index's
//                                                        `X.docset/` itself); prints p50 / p99 / max latency
//   tarix-bench sample-docset DOCSET_FOLDER SAMPLE       the same through the library, `InstalledDocset.contents(of:)`
//                                                        (the docset's store opened per read, a worker thread per
//                                                        read: what `docsync cat` does once)
import DocSync
import DocSyncTarix
import Foundation

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("tarix-bench: \(message)\n".utf8))
    exit(1)
}

func now(_ clock: clockid_t = CLOCK_MONOTONIC) -> Double {
    var ts = timespec()
    clock_gettime(clock, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// Prints the latency percentiles of `latencies` (wall) and `cpu` (this thread's CPU time), in milliseconds.
func report(_ label: String, _ latencies: [Double], _ cpu: [Double], bytes: Int) {
    let latencies = latencies.sorted()
    let cpu = cpu.sorted()
    func ms(_ values: [Double], _ q: Double) -> String {
        String(format: "%.3f", values[min(values.count - 1, Int(q * Double(values.count)))] * 1000)
    }
    print(
        "\(label)reads=\(latencies.count) bytes=\(bytes) p50_ms=\(ms(latencies, 0.5)) p99_ms=\(ms(latencies, 0.99)) "
            + "max_ms=\(ms(latencies, 1.0)) cpu_p50_ms=\(ms(cpu, 0.5)) cpu_p99_ms=\(ms(cpu, 0.99))")
}

/// The lines of the file at `path` (a sample of page paths).
func lines(_ path: String) -> [String] {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { fail("cannot read \(path)") }
    let lines = text.split(separator: "\n").map(String.init)
    guard !lines.isEmpty else { fail("no paths in \(path)") }
    return lines
}

let arguments = CommandLine.arguments
guard arguments.count >= 4 else { fail("usage: tarix-bench build|verify|read ...") }
do {
    switch arguments[1] {
    case "build":
        let source = open(arguments[2], O_RDONLY | O_CLOEXEC)
        let output = open(arguments[3], O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard source >= 0, output >= 0 else { fail("cannot open \(arguments[2]) or create \(arguments[3])") }
        let level = arguments.count > 5 ? Int32(arguments[5]) ?? 1 : 1
        let start = now()
        let summary = try TarixBuilder.build(
            source: source, sourceName: arguments[2], output: output, outputName: arguments[3], indexPath: arguments[4],
            level: level)
        fsync(output)
        let seconds = now() - start
        print(
            "mode=\(summary.mode.rawValue) seconds=\(String(format: "%.3f", seconds)) records=\(summary.records) "
                + "documents=\(summary.documents) tar_bytes=\(summary.tarBytes) archive_bytes=\(summary.archiveBytes)")
    case "verify":
        let archive = open(arguments[2], O_RDONLY | O_CLOEXEC)
        guard archive >= 0 else { fail("cannot open \(arguments[2])") }
        let start = now()
        var limits = TarixLimits()
        if let workers = ProcessInfo.processInfo.environment["TARIX_INFLATE_WORKERS"].flatMap({ Int($0) }) {
            limits.inflateWorkers = workers
        }
        let summary = try TarixVerifier.verify(
            archive: archive, archiveName: arguments[2], indexPath: arguments[3], limits: limits)
        print("verified seconds=\(String(format: "%.3f", now() - start)) documents=\(summary.documents)")
    case "read":
        guard arguments.count >= 6, let count = Int(arguments[5]) else { fail("usage: read ARCHIVE INDEX PATHS COUNT") }
        let reader = try TarixArchive(archivePath: arguments[2], indexPath: arguments[3])
        // TARIX_RECORD_INFLATE=isal, zlib or libdeflate: one decoder for every record (default: by the record's
        // length; libdeflate refuses records it cannot inflate whole, and this reader has no map of locations).
        let engine: RecordInflate =
            switch ProcessInfo.processInfo.environment["TARIX_RECORD_INFLATE"] {
            case "isal": .isal
            case "zlib": .zlib
            case "libdeflate": .libdeflate
            default: .bySize
            }
        let paths = try String(contentsOfFile: arguments[4], encoding: .utf8).split(separator: "\n").map(String.init)
        guard !paths.isEmpty else { fail("no paths in \(arguments[4])") }
        var state: UInt64 = 20_261_126
        var latencies: [Double] = []
        // CPU time of this thread per read: the work itself, without the waits a shared machine's scheduler adds.
        var cpu: [Double] = []
        var bytes = 0
        for _ in 0..<count {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let path = paths[Int((state >> 33) % UInt64(paths.count))]
            let start = now()
            let startCPU = now(CLOCK_THREAD_CPUTIME_ID)
            bytes += try reader.read(path, engine: engine).count
            latencies.append(now() - start)
            cpu.append(now(CLOCK_THREAD_CPUTIME_ID) - startCPU)
        }
        report("", latencies, cpu, bytes: bytes)
    case "sample-archive":
        guard arguments.count == 6 else { fail("usage: sample-archive ARCHIVE INDEX PREFIX SAMPLE") }
        let reader = try TarixArchive(archivePath: arguments[2], indexPath: arguments[3])
        let prefix = arguments[4]
        var latencies: [Double] = []
        var cpu: [Double] = []
        var bytes = 0
        for page in lines(arguments[5]) {
            let start = now()
            let startCPU = now(CLOCK_PROCESS_CPUTIME_ID)
            bytes += try reader.read(prefix + page).count
            latencies.append(now() - start)
            cpu.append(now(CLOCK_PROCESS_CPUTIME_ID) - startCPU)
        }
        report("archive ", latencies, cpu, bytes: bytes)
    case "sample-docset":
        guard arguments.count == 4 else { fail("usage: sample-docset DOCSET_FOLDER SAMPLE") }
        let docset = InstalledDocset(name: "bench", path: arguments[2])
        var latencies: [Double] = []
        // CPU time of the process (the read runs on a worker thread of its own): the work without the waits.
        var cpu: [Double] = []
        var bytes = 0
        for page in lines(arguments[3]) {
            let start = now()
            let startCPU = now(CLOCK_PROCESS_CPUTIME_ID)
            bytes += try await docset.contents(of: page).count
            latencies.append(now() - start)
            cpu.append(now(CLOCK_PROCESS_CPUTIME_ID) - startCPU)
        }
        report("docset ", latencies, cpu, bytes: bytes)
    default:
        fail("unknown command \(arguments[1])")
    }
} catch {
    fail("\(error)")
}
