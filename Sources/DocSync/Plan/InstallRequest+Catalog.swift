internal import DocSyncCatalog
internal import DocSyncInstall
import Foundation

extension InstallRequest {
    /// Fills what Zeal's `meta.json` takes from its catalogue (`extra`) and the icons decoded from base64.
    mutating func apply(catalog entry: CatalogEntry?) {
        guard let entry else { return }
        extra = entry.extra?.object ?? [:]
        for (file, base64) in [("icon.png", entry.icon), ("icon@2x.png", entry.icon2x)] {
            if let base64, let data = Data(base64Encoded: base64, options: .ignoreUnknownCharacters) {
                icons[file] = [UInt8](data)
            }
        }
    }
}
