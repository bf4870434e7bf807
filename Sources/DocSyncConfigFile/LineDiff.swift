import DocSync
/// A unified diff of two texts by lines (longest common subsequence; config files are small). Pure.
package enum LineDiff {
    package static func unified(_ old: String, _ new: String, path: String, context: Int = 2) -> String {
        let a = ConfigEditor.lines(old)
        let b = ConfigEditor.lines(new)
        guard a != b else { return "" }
        // lcs[i][j]: common lines of a[i...] and b[j...]
        var lcs = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            for j in stride(from: b.count - 1, through: 0, by: -1) {
                lcs[i][j] = a[i] == b[j] ? lcs[i + 1][j + 1] + 1 : max(lcs[i + 1][j], lcs[i][j + 1])
            }
        }
        enum Op { case same(String), del(String), add(String) }
        var ops: [Op] = []
        var (i, j) = (0, 0)
        while i < a.count || j < b.count {
            if i < a.count, j < b.count, a[i] == b[j] {
                ops.append(.same(a[i]))
                (i, j) = (i + 1, j + 1)
            } else if j < b.count, i == a.count || lcs[i][j + 1] >= lcs[i + 1][j] {
                ops.append(.add(b[j]))
                j += 1
            } else {
                ops.append(.del(a[i]))
                i += 1
            }
        }
        var out = "--- \(path)\n+++ \(path)\n"
        var index = 0
        var (oldLine, newLine) = (1, 1)
        while index < ops.count {
            guard case .same = ops[index] else {
                // A hunk: back up `context` lines, run until `2*context` unchanged lines in a row.
                let start = max(0, index - context)
                var end = index
                var quiet = 0
                while end < ops.count {
                    if case .same = ops[end] { quiet += 1 } else { quiet = 0 }
                    if quiet > 2 * context { break }
                    end += 1
                }
                end = min(ops.count, end - max(0, quiet - context))
                let lead = index - start
                var body = ""
                var (oldCount, newCount) = (0, 0)
                for op in ops[start..<end] {
                    switch op {
                    case .same(let l):
                        body += " \(l)\n"
                        oldCount += 1
                        newCount += 1
                    case .del(let l):
                        body += "-\(l)\n"
                        oldCount += 1
                    case .add(let l):
                        body += "+\(l)\n"
                        newCount += 1
                    }
                }
                out += "@@ -\(oldLine - lead),\(oldCount) +\(newLine - lead),\(newCount) @@\n" + body
                for op in ops[index..<end] {
                    switch op {
                    case .same: (oldLine, newLine) = (oldLine + 1, newLine + 1)
                    case .del: oldLine += 1
                    case .add: newLine += 1
                    }
                }
                index = end
                continue
            }
            (oldLine, newLine) = (oldLine + 1, newLine + 1)
            index += 1
        }
        return out
    }
}
