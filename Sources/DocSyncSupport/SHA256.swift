import CDocSyncSys
import Foundation

/// An incremental SHA-256 (OpenSSL's libcrypto, loaded on first use: ``load(for:)``) whose state is a plain value: it
/// can be copied, saved in a journal and continued later, so a resumed download re-hashes only the bytes the journal
/// cannot vouch for.
package struct SHA256: Sendable {
    package static let stateSize = MemoryLayout<ds_sha256_state>.size
    private var state = ds_sha256_state()

    package init() { ds_sha256_init(&state) }

    /// Restores a state saved with `savedState`; nil when the bytes are not a saved state.
    package init?(savedState: [UInt8]) {
        guard savedState.count == Self.stateSize else { return nil }
        withUnsafeMutableBytes(of: &state) { $0.copyBytes(from: savedState) }
    }

    package var savedState: [UInt8] { withUnsafeBytes(of: state) { Array($0) } }

    package mutating func update(_ buffer: UnsafeRawBufferPointer) {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return }
        ds_sha256_update(&state, base, buffer.count)
    }

    package mutating func update<Bytes: ContiguousBytes>(_ bytes: Bytes) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// The digest of everything so far; the hash can go on afterwards.
    package func finalize() -> Digest {
        var out = [UInt8](repeating: 0, count: 32)
        withUnsafePointer(to: state) { ds_sha256_final($0, &out) }
        return Digest(bytes: out)
    }

    package static func hash<Bytes: ContiguousBytes>(_ bytes: Bytes) -> Digest {
        var out = [UInt8](repeating: 0, count: 32)
        bytes.withUnsafeBytes { buffer in ds_sha256(buffer.baseAddress, buffer.count, &out) }
        return Digest(bytes: out)
    }

    /// Loads libcrypto, once (later calls return the first one's result): a missing library or function is a typed
    /// error naming it and `purpose`. The hashing functions stop the process when it cannot be loaded, so what hashes
    /// input it did not make (a download, an archive) loads it first (`Curl.load`, `LibArchiveLoader.load`).
    package static func load(for purpose: String) throws(LibraryUnavailable) {
        try LibraryUnavailable.check(DS_CRYPTO_SONAME, for: purpose) { _, _, missing in ds_crypto_load(missing) }
    }

    /// The same load of `soname` with libcrypto's function list, closed again: a library that is missing or lacks a
    /// function is the error ``load(for:)`` throws (tests).
    package static func probe(soname: String) throws(LibraryUnavailable) {
        try LibraryUnavailable.check(soname, for: "checksums") { ds_crypto_probe(soname, $0, $1, $2) }
    }

    /// A SHA-256 digest; `description` is lowercase hex.
    package struct Digest: Hashable, Sendable, CustomStringConvertible {
        package let bytes: [UInt8]

        package init(bytes: [UInt8]) { self.bytes = bytes }

        /// Parses 64 hex digits (either case); nil otherwise.
        package init?(hex: String) {
            let chars = Array(hex.utf8)
            guard chars.count == 64 else { return nil }
            var out = [UInt8]()
            out.reserveCapacity(32)
            for i in stride(from: 0, to: 64, by: 2) {
                guard let hi = chars[i].hexDigitValue, let lo = chars[i + 1].hexDigitValue else { return nil }
                out.append(hi << 4 | lo)
            }
            bytes = out
        }

        package var description: String {
            let digits = Array("0123456789abcdef".utf8)
            var out = [UInt8]()
            out.reserveCapacity(64)
            for b in bytes {
                out.append(digits[Int(b >> 4)])
                out.append(digits[Int(b & 0xF)])
            }
            return String(decoding: out, as: UTF8.self)
        }
    }
}
