extension Installer {
    /// The icon files a catalogue may supply, the names Zeal reads beside `meta.json`.
    static let iconNames: Set<String> = ["icon.png", "icon@2x.png"]

    /// Writes the catalogue's icons into the staged docset where the archive brought none (an archive's own icon
    /// always wins). Only PNG data is written. Returns the names written.
    static func writeIcons(_ icons: [String: [UInt8]], into staging: DirectoryHandle) throws(InstallError) -> [String] {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var written: [String] = []
        for name in icons.keys.sorted() where iconNames.contains(name) {
            guard let png = icons[name], png.starts(with: signature), try staging.status(name) == nil else { continue }
            try staging.writeFile(name, png)
            written.append(name)
        }
        return written
    }
}
