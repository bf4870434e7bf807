import DocSync

/// One excluded mirror in `fetch --json`'s `mirror_faults` (documented in JSONObjects.md): the mirror's URL with
/// credentials redacted, the reason code and the message.
struct AlternateFaultJSON: Encodable {
    var url: String
    var reason: String
    var message: String

    init(_ fault: FileFetch.MirrorFault) {
        url = fault.url.redactingCredentials
        reason = fault.reason.description
        message = fault.message.redactingCredentials
    }
}
