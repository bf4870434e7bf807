import Foundation

/// The process umask, read once from /proc (calling umask() to read it would briefly change it for every thread).
enum ProcessUmask {
    static let value: mode_t = {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0o022 }
        for line in status.split(separator: "\n") where line.hasPrefix("Umask:") {
            let digits = line.dropFirst("Umask:".count).trimmingCharacters(in: .whitespaces)
            if let mask = mode_t(digits, radix: 8) { return mask }
        }
        return 0o022
    }()
}
