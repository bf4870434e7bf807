/// Python written straight from Zeal's `TarixArchive` (src/libs/util/tarixarchive.cpp) and its test's writer —
/// independent of docsync's Swift code, so they check it rather than repeat it.
enum ZealScripts {
    /// Zeal's reader: for every row with a non-empty hash, raw inflate (`-MAX_WBITS`) from `<offset>`, take exactly
    /// `<length> * 512` bytes, parse the first tar entry (long names and pax consumed, as libarchive does), and
    /// compare its bytes with the file of the same path in the extracted tree. Prints `OK <count>` or the first
    /// mismatch.
    static let reader = #"""
        import io, sqlite3, sys, tarfile, zlib
        archive, index, extracted = sys.argv[1:4]
        db = sqlite3.connect("file:%s?mode=ro" % index, uri=True)
        rows = db.execute("SELECT path, hash FROM tarindex WHERE hash <> ''").fetchall()
        count = 0
        with open(archive, "rb") as f:
            for path, h in rows:
                block, offset, length = (int(x) for x in h.split(" "))
                need = length * 512
                f.seek(offset)
                d = zlib.decompressobj(-15)
                raw = bytearray()
                data = b""
                while len(raw) < need and not d.eof:
                    data = d.unconsumed_tail or f.read(65536)
                    if not data:
                        break
                    raw += d.decompress(data, need - len(raw))
                if len(raw) != need:
                    print("SHORT", path, len(raw), need); sys.exit(0)
                t = tarfile.open(fileobj=io.BytesIO(bytes(raw)), mode="r:")
                m = t.next()
                if m is None or m.name.rstrip("/") != path.rstrip("/"):
                    print("NAME", path, m and m.name); sys.exit(0)
                if not m.isfile():
                    continue
                content = t.extractfile(m).read()
                with open(extracted + "/" + path, "rb") as g:
                    if g.read() != content:
                        print("CONTENT", path); sys.exit(0)
                count += 1
        print("OK", count)
        """#

    /// A publisher's tarix writer as Zeal's test writes one: gzip (zlib level 6, Python's zlib), a full flush before
    /// every record (GNU long-name and pax headers belong to the record they precede), `"<block> <offset> <length>"`
    /// hashes, directories located too, `tarindex(path TEXT PRIMARY KEY COLLATE NOCASE, hash TEXT)`.
    static let writer = #"""
        import gzip, sqlite3, sys, tarfile, zlib
        source, archive, index = sys.argv[1:4]
        flush = zlib.Z_SYNC_FLUSH if len(sys.argv) > 4 and sys.argv[4] == "sync" else zlib.Z_FULL_FLUSH
        tar = gzip.open(source).read()
        members = tarfile.open(source, "r:gz").getmembers()
        z = zlib.compressobj(6, zlib.DEFLATED, 31)
        out = bytearray()
        rows = []
        starts = [m.offset for m in members]
        end = members[-1].offset_data + (members[-1].size + 511) // 512 * 512 if members else 0
        for i, m in enumerate(members):
            out += z.flush(flush)
            stop = starts[i + 1] if i + 1 < len(starts) else end
            name = m.name + ("/" if m.isdir() else "")
            rows.append((name, "%d %d %d" % (m.offset // 512, len(out), (stop - m.offset) // 512)))
            out += z.compress(tar[m.offset:stop])
        out += z.flush(zlib.Z_FULL_FLUSH)
        out += z.compress(tar[end:])
        out += z.flush(zlib.Z_FINISH)
        open(archive, "wb").write(out)
        db = sqlite3.connect(index)
        db.execute("CREATE TABLE tarindex(path TEXT PRIMARY KEY COLLATE NOCASE, hash TEXT)")
        db.executemany("INSERT INTO tarindex VALUES (?, ?)", rows)
        db.commit()
        print(len(rows))
        """#

    /// Writes a `.tgz` with hand-made entries: argv[1] the archive, then `kind:name[:target]` items (file, dir,
    /// symlink, hardlink, fifo).
    static let hostile = #"""
        import io, sys, tarfile
        with tarfile.open(sys.argv[1], "w:gz", format=tarfile.GNU_FORMAT) as t:
            for item in sys.argv[2:]:
                kind, name, *rest = item.split(":")
                info = tarfile.TarInfo(name)
                data = None
                if kind == "file":
                    data = b"payload"
                    info.size = len(data)
                elif kind == "dir":
                    info.type = tarfile.DIRTYPE
                elif kind == "symlink":
                    info.type = tarfile.SYMTYPE; info.linkname = rest[0]
                elif kind == "hardlink":
                    info.type = tarfile.LNKTYPE; info.linkname = rest[0]
                elif kind == "fifo":
                    info.type = tarfile.FIFOTYPE
                t.addfile(info, io.BytesIO(data) if data is not None else None)
        """#
}
