// libFuzzer target for the parsers that read what a server sends: Content-Range, header blocks (every status line
// starts a fresh head) and the response policy that judges them. Invariants checked on every input:
//   - a parsed Content-Range is internally valid (first ≤ last < complete) and re-parses from its canonical text;
//   - a `.write` decision never starts at another byte than the one asked for, never claims a span past L, and
//     never compares more overlap than was requested.
import DocSyncDownload
import DocSyncHTTP

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let text = String(decoding: bytes, as: UTF8.self)

    if let range = ContentRange(parsing: text) {
        switch range.form {
        case .satisfied(let first, let last, let complete):
            precondition(first >= 0 && last >= first)
            if let complete { precondition(complete > last) }
            let canonical = "bytes \(first)-\(last)/\(complete.map(String.init) ?? "*")"
            precondition(ContentRange(parsing: canonical) == range)
        case .unsatisfied(let complete):
            precondition(ContentRange(parsing: "bytes */\(complete)") == range)
        }
    }

    var parser = HTTPHeadParser()
    var heads: [HTTPResponseHead] = []
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
        if let head = parser.consume(String(line) + "\n") { heads.append(head) }
    }
    let committed: Int64 = 1_000_000
    let length: Int64 = 2_000_000
    let asked = committed - 65_536
    let state = ResumeState(committed: committed, length: length, validator: Validator(etag: "\"v1\""))
    for head in heads {
        for plan in [RequestPlan.range(from: asked, ifRange: "\"v1\""), .fresh(discardPartial: false)] {
            let decision = ResponsePolicy.decide(head, .init(state: state, plan: plan))
            guard case .write(let write) = decision else { continue }
            if plan.isRange, !write.truncateFirst {
                precondition(head.status == 206 && write.from == asked && write.overlap == committed - asked)
                precondition(write.total == length && (write.end ?? 0) <= length && (write.end ?? 0) > write.from)
            } else {
                precondition(head.status == 200 && write.from == 0 && write.overlap == 0)
            }
        }
    }
    return 0
}
