import DocSyncSupport
import Foundation

/// Makes a tarix store out of a publisher's `.tgz`: when the archive already has a full flush before every record
/// (detected in one inflate pass, each flush point proven by a cold restart) it is indexed as it is; otherwise it is
/// re-encoded once into `output` with `TarixWriter`. Either way the index is written to `indexPath` (which must not
/// exist) and every path passes `TarixPathPolicy`.
package enum TarixBuilder {
    /// `source`: the `.tgz`, read with `pread` from offset 0. `output`: an empty file the re-encoded archive is
    /// written to when needed (left empty when the summary's mode is `.indexedAsIs`: the source is the archive).
    package static func build(
        source: Int32, sourceName: String, output: Int32, outputName: String, indexPath: String, level: Int32 = 1,
        limits: TarixLimits = TarixLimits()
    ) throws(TarixError) -> TarixSummary {
        try build(
            source: FileByteSource(fd: source, name: sourceName), sourceName: sourceName, output: output,
            outputName: outputName, indexPath: indexPath, level: level, limits: limits)
    }

    /// `build` reading through `source` (an archive still downloading: every read waits for its bytes).
    package static func build(
        source: any ByteSource, sourceName: String, output: Int32, outputName: String, indexPath: String,
        level: Int32 = 1, limits: TarixLimits = TarixLimits()
    ) throws(TarixError) -> TarixSummary {
        let index = try TarixIndexWriter(path: indexPath)
        if case .success(let summary) = try indexAsIsOrEmpty(
            source: source, sourceName: sourceName, index: index, limits: limits)
        {
            return summary
        }
        return try reencode(
            source: source, sourceName: sourceName, output: output, outputName: outputName, index: index,
            level: level, limits: limits)
    }

    /// Only the first half of `build`: indexes `source` into `indexPath` (which must not exist) when it already has
    /// a full flush before every record; throws `notFlushed` (the index left empty) when it has not — the fleet
    /// mirror publishes an index only for the bytes it already serves. `observer`: sees the bytes, records and data
    /// of this one pass (the installer extracts what lies outside `Documents/` from it).
    package static func indexAsIs(
        source: Int32, sourceName: String, indexPath: String, limits: TarixLimits = TarixLimits(),
        observer: TarixWalkObserver? = nil
    ) throws(TarixError) -> TarixSummary {
        try indexAsIs(
            source: FileByteSource(fd: source, name: sourceName), sourceName: sourceName, indexPath: indexPath,
            limits: limits, observer: observer)
    }

    /// `indexAsIs` reading through `source` (an archive still downloading: every read waits for its bytes).
    package static func indexAsIs(
        source: any ByteSource, sourceName: String, indexPath: String, limits: TarixLimits = TarixLimits(),
        observer: TarixWalkObserver? = nil
    ) throws(TarixError) -> TarixSummary {
        let index = try TarixIndexWriter(path: indexPath)
        return try indexAsIsOrEmpty(
            source: source, sourceName: sourceName, index: index, limits: limits, observer: observer
        ).get()
    }

    /// `indexAsIs` into `index`; when the archive lacks the flushes, `.failure(notFlushed)` with the index emptied
    /// (for a re-encode to fill, or to be left empty).
    private static func indexAsIsOrEmpty(
        source: any ByteSource, sourceName: String, index: TarixIndexWriter, limits: TarixLimits,
        observer: TarixWalkObserver? = nil
    ) throws(TarixError) -> Result<TarixSummary, TarixError> {
        do {
            let summary = try indexAsIs(
                source: source, sourceName: sourceName, index: index, limits: limits, observer: observer)
            return .success(summary)
        } catch let error where error.isNotFlushed {
            try index.removeAll()
            return .failure(error)
        }
    }

    private static func indexAsIs(
        source: any ByteSource, sourceName: String, index: TarixIndexWriter, limits: TarixLimits,
        observer: TarixWalkObserver? = nil
    ) throws(TarixError) -> TarixSummary {
        var policy = TarixPathPolicy(limits: limits)
        var documents = 0
        let walk = ArchiveWalk(source: source, name: sourceName, limits: limits, observer: observer)
        let result = try walk.run(expect: { _ in .first }) { record, offset throws(TarixError) in
            switch try policy.evaluate(record) {
            case .skip: return
            case .directory: try index.add(path: String(decoding: record.path, as: UTF8.self), hash: "")
            case .document:
                guard let offset else {
                    throw .notFlushed(record.displayPath, "no flush point before this record")
                }
                let location = TarixLocation(block: record.firstBlock, offset: offset, length: record.blockCount)
                try index.add(path: String(decoding: record.path, as: UTF8.self), hash: location.description)
                documents += 1
            }
        }
        try index.commit()
        return TarixSummary(
            mode: .indexedAsIs, records: result.records, documents: documents, indexRows: index.rows,
            tarBytes: result.tarBytes, archiveBytes: result.archiveBytes,
            rootPrefix: policy.rootPrefix.map { String(decoding: $0, as: UTF8.self) })
    }

    /// Re-encodes `source` into `output` (an empty file): a gzip with a full flush before every record, deflated on
    /// two worker threads while this thread inflates and walks the source, indexed into `indexPath` (which must not
    /// exist). One pass over the source: `observer` sees its bytes, its records and their data (the installer
    /// hashes the source and extracts what lies outside `Documents/` from them). The summary carries the SHA-256 of
    /// `output` as written.
    package static func reencode(
        source: Int32, sourceName: String, output: Int32, outputName: String, indexPath: String, level: Int32 = 1,
        limits: TarixLimits = TarixLimits(), observer: TarixWalkObserver? = nil
    ) throws(TarixError) -> TarixSummary {
        try reencode(
            source: FileByteSource(fd: source, name: sourceName), sourceName: sourceName, output: output,
            outputName: outputName, indexPath: indexPath, level: level, limits: limits, observer: observer)
    }

    /// ``reencode(source:sourceName:output:outputName:indexPath:level:limits:observer:)`` reading any
    /// ``ByteSource`` (an archive still downloading waits for its bytes).
    package static func reencode(
        source: any ByteSource, sourceName: String, output: Int32, outputName: String, indexPath: String,
        level: Int32 = 1, limits: TarixLimits = TarixLimits(), observer: TarixWalkObserver? = nil
    ) throws(TarixError) -> TarixSummary {
        let index = try TarixIndexWriter(path: indexPath)
        return try reencode(
            source: source, sourceName: sourceName, output: output, outputName: outputName, index: index,
            level: level, limits: limits, observer: observer)
    }

    private static func reencode(
        source: any ByteSource, sourceName: String, output: Int32, outputName: String, index: TarixIndexWriter,
        level: Int32, limits: TarixLimits, observer: TarixWalkObserver? = nil
    ) throws(TarixError) -> TarixSummary {
        let writer = try TarixWriter(
            archive: output, archiveName: outputName, index: index, level: level, limits: limits, observer: observer)
        let decoder = try GzipDecoder(name: sourceName)
        // The source is read by the walks' one reader (`ArchiveWalk.Reader`), every byte shown to the observer.
        var reader = ArchiveWalk.Reader(source: source, name: sourceName, onRead: observer?.read)
        while try reader.fill() {
            let inflated: Result<Void, TarixError> = reader.withInput { input in
                Result { () throws(TarixError) in
                    try decoder.write(input) { tar throws(TarixError) in try writer.write(tar) }
                }
            }
            try inflated.get()
            reader.advance(reader.withInput { $0.count })
        }
        try decoder.finish()
        return try writer.finish()
    }
}
