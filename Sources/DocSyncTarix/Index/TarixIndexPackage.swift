import Foundation

/// A publisher's index as Kapeli's feed build ships it at `<archive URL>.tarix`: a gzip'd tar holding the SQLite
/// database (`tarixIndex.db`). `unpack` writes the database out of it, streaming and bounded; the database is then
/// checked against the archive in full like any publisher's index (`TarixVerifier`).
package enum TarixIndexPackage {
    /// True when `fd` starts with gzip's magic bytes (a `.tarix` package rather than a bare SQLite database).
    package static func isPackage(_ fd: Int32) -> Bool {
        var magic: (UInt8, UInt8) = (0, 0)
        return withUnsafeMutableBytes(of: &magic) { pread(fd, $0.baseAddress, 2, 0) } == 2 && magic == (0x1F, 0x8B)
    }

    /// Writes the package `source`'s first regular file (the index database) to `output`; GNU long names, pax
    /// headers and folders before it are skipped. Refuses a package holding no file or a file over `maxBytes`.
    package static func unpack(
        _ source: Int32, sourceName: String, to output: Int32, outputName: String, maxBytes: Int64 = 256 << 20
    ) throws(TarixError) {
        let decoder = try GzipDecoder(name: sourceName)
        let sink = FileSink(fd: output, name: outputName)
        var walk = Walk(name: sourceName, maxBytes: maxBytes)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 256 << 10, alignment: 16)
        defer { buffer.deallocate() }
        var offset: off_t = 0
        while !walk.done {
            let n = pread(source, buffer.baseAddress, buffer.count, offset)
            if n < 0, errno == EINTR { continue }
            if n < 0 { throw .io(sourceName, "read failed: \(String(cString: strerror(errno)))") }
            if n == 0 {
                try decoder.finish()
                throw .badIndex(sourceName, "the .tarix package ends before its index database")
            }
            offset += off_t(n)
            try decoder.write(UnsafeRawBufferPointer(rebasing: buffer[0..<n])) { (chunk) throws(TarixError) in
                try walk.consume(chunk, sink)
            }
        }
        try sink.flush()
    }

    /// The tar walk over the inflated bytes: headers are collected block by block, the first regular file's bytes
    /// go to the sink, everything else is skipped.
    private struct Walk {
        let name: String
        let maxBytes: Int64
        var header: [UInt8] = []
        /// Bytes of the current entry still to copy (`copying`) or skip, padding included.
        var remaining: Int64 = 0
        var copyLeft: Int64 = 0
        var copying = false
        var done = false

        init(name: String, maxBytes: Int64) {
            self.name = name
            self.maxBytes = maxBytes
            header.reserveCapacity(TarHeader.blockSize)
        }

        mutating func consume(_ chunk: UnsafeRawBufferPointer, _ sink: FileSink) throws(TarixError) {
            var rest = chunk
            while !rest.isEmpty, !done {
                if remaining > 0 {
                    let take = Int(min(Int64(rest.count), remaining))
                    if copying, copyLeft > 0 {
                        let data = Int(min(Int64(take), copyLeft))
                        try sink.append(UnsafeRawBufferPointer(rebasing: rest[0..<data]))
                        copyLeft -= Int64(data)
                    }
                    remaining -= Int64(take)
                    rest = UnsafeRawBufferPointer(rebasing: rest[take...])
                    if remaining == 0, copying { done = true }
                    continue
                }
                let take = min(rest.count, TarHeader.blockSize - header.count)
                header.append(contentsOf: rest[0..<take])
                rest = UnsafeRawBufferPointer(rebasing: rest[take...])
                guard header.count == TarHeader.blockSize else { continue }
                try startEntry()
                header.removeAll(keepingCapacity: true)
            }
        }

        private mutating func startEntry() throws(TarixError) {
            let parsed = header.withUnsafeBytes { block -> Result<TarHeader, TarHeader.Problem>? in
                TarHeader.isZero(block) ? nil : TarHeader.parse(block)
            }
            guard let parsed else { throw .badIndex(name, "the .tarix package holds no file") }
            let entry: TarHeader
            switch parsed {
            case .success(let header): entry = header
            case .failure(let problem): throw .badIndex(name, "not a .tarix package: \(problem.message)")
            }
            remaining = TarScanner.padded(entry.size)
            guard entry.typeflag == UInt8(ascii: "0") || entry.typeflag == 0 else { return }
            guard entry.size <= maxBytes else {
                throw .tooLarge(name, "its index database is \(entry.size) bytes (at most \(maxBytes))")
            }
            copying = true
            copyLeft = entry.size
            if remaining == 0 { done = true }
        }
    }
}
