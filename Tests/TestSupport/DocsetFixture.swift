import DocSync
import DocSyncInstall
import DocSyncSupport
import Foundation

/// A small docset described in memory — files with contents and modes under the docset root — that tests pack
/// into real archives (with libarchive's writer) and compare against what an install produced.
package struct DocsetFixture: Sendable {
    /// Path inside the docset → (contents, permission bits as archived).
    package var files: [String: (data: [UInt8], mode: UInt32)]
    /// Extra directories (parents of files are implied).
    package var directories: Set<String>

    /// A Dash-style docset: Info.plist naming `version`, a real SQLite `docSet.dsidx` with `indexRows` rows, and
    /// `documents` HTML files (one executable) in `Contents/Resources/<documentsFolder>/`.
    package static func make(
        version: String, documents: Int = 6, indexRows: Int = 3, documentsFolder: String = "Documents",
        bytesPerDocument: Int = 600
    ) throws -> DocsetFixture {
        var files: [String: (data: [UInt8], mode: UInt32)] = [:]
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
            <key>CFBundleIdentifier</key><string>org.example.fixture</string>
            <key>CFBundleName</key><string>Fixture</string>
            <key>CFBundleVersion</key><string>\(version)</string>
            <key>DocSetPlatformFamily</key><string>fixture</string>
            </dict></plist>
            """
        files["Contents/Info.plist"] = (Array(plist.utf8), 0o644)
        files["Contents/Resources/docSet.dsidx"] = (try SQLiteIndex.make(rows: indexRows), 0o644)
        for i in 0..<documents {
            let folder = "Contents/Resources/\(documentsFolder)/\(i % 3 == 0 ? "" : "section\(i % 3)/")"
            var html = "<html><body><h1>\(version) page \(i)</h1>"
            while html.utf8.count < bytesPerDocument { html += "<p>Version \(version), paragraph \(html.count).</p>" }
            files["\(folder)page\(i).html"] = (Array((html + "</body></html>\n").utf8), i == 1 ? 0o755 : 0o644)
        }
        return DocsetFixture(files: files, directories: ["Contents/Resources/\(documentsFolder)"])
    }

    /// Every directory implied by the files, plus the explicit ones, parents first.
    package var allDirectories: [String] {
        var result = directories
        for path in files.keys {
            var parts = path.split(separator: "/").dropLast()
            while !parts.isEmpty {
                result.insert(parts.joined(separator: "/"))
                parts = parts.dropLast()
            }
        }
        return result.sorted()
    }

    /// Archive entries: directories, then files, each path prefixed with `prefix` (e.g. "X.docset/").
    package func entries(prefix: String = "Fixture.docset/") -> [ArchiveWriter.Entry] {
        var entries: [ArchiveWriter.Entry] = []
        if !prefix.isEmpty { entries.append(.directory(String(prefix.dropLast()))) }
        entries += allDirectories.map { .directory(prefix + $0) }
        entries += files.keys.sorted().map { path in
            let file = files[path]!
            return ArchiveWriter.Entry(prefix + path, .file(data: file.data), permissions: file.mode)
        }
        return entries
    }

    /// Writes an archive of this docset, with `before` and `after` entries around it (hostile or odd extras).
    package func writeArchive(
        to path: String, format: ArchiveWriter.Format = .pax, filter: ArchiveWriter.Filter = .gzip,
        prefix: String = "Fixture.docset/", before: [ArchiveWriter.Entry] = [], after: [ArchiveWriter.Entry] = []
    ) throws {
        try ArchiveFixture.write(to: path, format: format, filter: filter, before + entries(prefix: prefix) + after)
    }

    /// What an install must produce: path → "mode sha256" for files and "dir" for directories (meta.json excluded,
    /// modes normalised to 0444/0555 for files — installed files are read-only — and 0755 for directories).
    package var expectedManifest: [String: String] {
        var manifest: [String: String] = [:]
        for dir in allDirectories { manifest[dir] = "dir 755" }
        for (path, file) in files {
            let mode = file.mode & 0o111 != 0 ? "555" : "444"
            manifest[path] = "file \(mode) \(SHA256.hash(file.data))"
        }
        return manifest
    }
}

extension DocsetFixture {
    /// The manifest of the tree `writeTree` makes (modes as written: 0644 / 0755), for folders docsync did not install.
    package var writtenManifest: [String: String] {
        expectedManifest.mapValues {
            $0.replacingOccurrences(of: "file 444 ", with: "file 644 ")
                .replacingOccurrences(of: "file 555 ", with: "file 755 ")
        }
    }

    /// Writes the docset as a directory tree at `path` (for packing with GNU tar or bsdtar).
    package func writeTree(to path: String) throws {
        let fm = FileManager.default
        for dir in allDirectories {
            try fm.createDirectory(atPath: "\(path)/\(dir)", withIntermediateDirectories: true)
        }
        for (relative, file) in files {
            let target = "\(path)/\(relative)"
            try Data(file.data).write(to: URL(fileURLWithPath: target))
            try fm.setAttributes([.posixPermissions: Int(file.mode)], ofItemAtPath: target)
        }
    }
}
