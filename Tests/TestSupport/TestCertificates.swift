import Foundation

/// A test certificate authority and one server certificate it signed, made with the `openssl` tool once per test
/// run (in a temporary folder, reused by every test). The server certificate names `localhost` only, so
/// `https://127.0.0.1:…` is a wrong host name for it.
package struct TestCertificates: Sendable {
    /// The CA certificate (PEM): what `ca_file` / `CURL_CA_BUNDLE` point at.
    package let caFile: String
    /// The server's certificate (PEM) and its private key, for nginx.
    package let certificateFile: String
    package let keyFile: String
    /// The host name in the server certificate.
    package static let host = "localhost"

    /// The run's certificates, made on first use.
    package static func shared() throws -> TestCertificates { try made.get() }

    private static let made: Result<TestCertificates, TestServerError> = {
        do {
            return .success(try make(in: try TemporaryDirectory("docsync-test-ca")))
        } catch {
            return .failure(TestServerError("test CA: \(error)"))
        }
    }()

    private static func make(in directory: TemporaryDirectory) throws -> TestCertificates {
        let ca = directory.appending("ca.pem")
        let caKey = directory.appending("ca.key")
        let key = directory.appending("server.key")
        let request = directory.appending("server.csr")
        let certificate = directory.appending("server.pem")
        let extensions = directory.appending("server.ext")
        try """
        subjectAltName = DNS:\(host)
        basicConstraints = critical, CA:FALSE
        keyUsage = critical, digitalSignature
        extendedKeyUsage = serverAuth
        """.write(toFile: extensions, atomically: true, encoding: .utf8)
        let curve = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try openssl(
            ["req", "-x509"] + curve + [
                "-keyout", caKey, "-out", ca, "-days", "3", "-subj", "/CN=docsync test CA",
                "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
            ])
        try openssl(["req"] + curve + ["-keyout", key, "-out", request, "-subj", "/CN=\(host)"])
        try openssl([
            "x509", "-req", "-in", request, "-CA", ca, "-CAkey", caKey, "-CAcreateserial", "-out", certificate,
            "-days", "3", "-extfile", extensions,
        ])
        return TestCertificates(caFile: ca, certificateFile: certificate, keyFile: key)
    }

    private static func openssl(_ arguments: [String]) throws {
        let result = try Tool.run("/usr/bin/openssl", arguments)
        guard result.status == 0 else {
            throw TestServerError("openssl \(arguments.prefix(2).joined(separator: " ")): \(result.standardError)")
        }
    }
}
