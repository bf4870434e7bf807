import Testing

@testable import DocSyncInstall
