import DocSync
import Foundation

/// A first run's configuration (`docsync init`, and `add` / `adopt` offering it): the documented file
/// (`config/docsync.toml`) with `root` set to Zeal's own docset folder when it exists, else to the folder given.
/// Nothing here writes unless asked: no command creates a configuration silently.
package enum FirstConfig {
    /// A problem writing the first configuration, naming the file or folder at fault.
    package struct Failure: Error, CustomStringConvertible, Sendable {
        package let description: String
    }

    /// Where a new configuration goes when `--config` is not given: `$DOCSYNC_CONFIG` when set, else
    /// `$XDG_CONFIG_HOME/docsync/docsync.toml` (`~/.config/docsync/docsync.toml`) — the first places docsync looks.
    package static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let explicit = environment["DOCSYNC_CONFIG"], !explicit.isEmpty { return explicit }
        return DocSyncConfigurationLoader(environment: environment).searchPath()[0]
    }

    /// Zeal's docset folder, if it exists: `[docsets] path` of Zeal's settings (`$XDG_CONFIG_HOME/Zeal/Zeal.conf`),
    /// else Zeal's default `$XDG_DATA_HOME/Zeal/Zeal/docsets` (zealdocs/zeal `Settings::load`).
    package static func zealDocsets(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        let home = environment["HOME"] ?? NSHomeDirectory()
        func xdg(_ name: String, _ fallback: String) -> String {
            environment[name].flatMap { $0.isEmpty ? nil : $0 } ?? "\(home)/\(fallback)"
        }
        var candidates: [String] = []
        if let settings = try? String(contentsOfFile: "\(xdg("XDG_CONFIG_HOME", ".config"))/Zeal/Zeal.conf",
            encoding: .utf8), let path = settingsPath(settings)
        {
            candidates.append(path)
        }
        candidates.append("\(xdg("XDG_DATA_HOME", ".local/share"))/Zeal/Zeal/docsets")
        return candidates.first { path in
            var isDirectory: ObjCBool = false
            return path.hasPrefix("/") && FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
                && isDirectory.boolValue
        }
    }

    /// `path=` in the `[docsets]` group of a QSettings INI file. Pure.
    package static func settingsPath(_ ini: String) -> String? {
        var group = ""
        for raw in ini.split(whereSeparator: \.isNewline) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("[") && line.hasSuffix("]") {
                group = String(line.dropFirst().dropLast())
            } else if group == "docsets", line.hasPrefix("path="), line.count > 5 {
                var value = String(line.dropFirst(5))
                if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 {
                    value = String(value.dropFirst().dropLast())
                }
                return value
            }
        }
        return nil
    }

    /// The documented configuration with `root` set (a TOML basic string). Pure.
    package static func text(root: String) -> String {
        var escaped = ""
        for scalar in root.unicodeScalars {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                escaped += String(format: "\\u%04X", scalar.value)
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        let line = "root = \"~/.local/share/Zeal/Zeal/docsets\""
        return ConfigTemplate.text.replacingOccurrences(of: line, with: "root = \"\(escaped)\"")
    }

    /// Writes `text(root:)` to `path` (creating its folder); never replaces an existing file.
    package static func write(root: String, to path: String) throws(Failure) {
        let fm = FileManager.default
        if fm.fileExists(atPath: path) { throw Failure(description: "\(path) already exists; not replaced") }
        let folder = (path as NSString).deletingLastPathComponent
        do {
            if !folder.isEmpty { try fm.createDirectory(atPath: folder, withIntermediateDirectories: true) }
            let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
            if fd < 0 { throw Failure(description: "cannot create \(path): \(String(cString: strerror(errno)))") }
            let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
            try handle.write(contentsOf: Data(text(root: root).utf8))
            try handle.synchronize()
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(description: "cannot write \(path): \(error)")
        }
    }
}
