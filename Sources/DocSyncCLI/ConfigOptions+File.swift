import DocSync
import DocSyncConfigFile
import DocSyncSupport
import Foundation

extension ConfigOptions {
    /// The configuration file's path (as `load()` finds it), for commands that edit it.
    func file() throws -> String {
        let loader = DocSyncConfigurationLoader.processEnvironment()
        guard let file = config ?? loader.locate() else {
            printError("docsync: no configuration file found (pass --config FILE)")
            throw ExitStatus.configError
        }
        return file
    }
}

/// Shared by `add` and `drop`: show or write an edit of the config file, keeping its permissions.
enum ConfigFileEdit {
    static func apply(_ edit: ConfigEditor.Edit, original: String, file: String, dryRun: Bool) throws {
        if dryRun {
            let diff = LineDiff.unified(original, edit.text, path: file)
            print(diff.isEmpty ? "No change to \(file)." : diff, terminator: diff.isEmpty ? "\n" : "")
            return
        }
        guard edit.text != original else { return }
        // Check the result still loads before replacing the file: an edit never breaks a working config.
        let directory = (file as NSString).deletingLastPathComponent
        do {
            _ = try DocSyncConfigurationLoader.processEnvironment().parse(
                edit.text, file: file, relativeTo: directory.isEmpty ? "." : directory)
        } catch {
            printError("docsync: the edited configuration would not load, \(file) is unchanged: \(error)")
            throw ExitStatus.configError
        }
        let mode = (try? FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int) ?? 0o644
        do {
            try Data(edit.text.utf8).write(to: URL(fileURLWithPath: file), options: .atomic)
            try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: file)
        } catch {
            printError("docsync: cannot write \(file): \(error)")
            throw ExitStatus.ioError
        }
    }

    static func read(_ file: String) throws -> String {
        let limit = DocSyncConfigurationLoader.maximumFileSize
        guard let bytes = (try? RegularFile.read(path: file, limit: limit)).flatMap({ $0 }),
            let text = String(validating: bytes, as: UTF8.self)
        else {
            printError("docsync: cannot read \(file) as UTF-8 text")
            throw ExitStatus.configError
        }
        return text
    }
}
