import DocSyncSupport
import Testing

@Suite(.timeLimit(.minutes(5))) struct SHA256Tests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
    ])
    func knownVectors(input: String, hex: String) {
        #expect(SHA256.hash(Array(input.utf8)).description == hex)
        var incremental = SHA256()
        for byte in input.utf8 { incremental.update([byte]) }
        #expect(incremental.finalize().description == hex)
    }

    @Test func savedStateContinuesTheSameHash() throws {
        let data = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        var first = SHA256()
        first.update(Array(data[..<40_000]))
        let saved = first.savedState
        var resumed = try #require(SHA256(savedState: saved))
        resumed.update(Array(data[40_000...]))
        #expect(resumed.finalize() == SHA256.hash(data))
        #expect(SHA256(savedState: [1, 2, 3]) == nil)
    }

    @Test(arguments: [
        ("BA7816BF8F01CFEA414140DE5DAE2223B00361A396177A9CB410FF61F20015AD", true),
        ("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015a", false),
        ("zz7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", false),
    ])
    func hexParsing(hex: String, valid: Bool) {
        let digest = SHA256.Digest(hex: hex)
        #expect((digest != nil) == valid)
        if let digest { #expect(digest.description == hex.lowercased()) }
    }
}
