import DocSyncSupport
import Testing

/// `docsync --version` outside the shipped build: no object defines `docsync_build_info` (only scripts/build-release
/// links one), so the weak reference is null and the version falls back instead of reading address 0.
@Suite(.timeLimit(.minutes(5))) struct BuildInfoTests {
    @Test func aBuildWithoutTheVersionObjectSaysDev() {
        #expect(BuildInfo.version == "dev")
        #expect(BuildInfo.commit == "unknown")
        #expect(BuildInfo.versionLine == "docsync dev (commit unknown)")
    }
}
