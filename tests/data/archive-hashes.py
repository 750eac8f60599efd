#!/usr/bin/env python3
# archive-hashes.py: computes, independently of libpclrt, the content hashes
# that tests/unit/runtime/test_hash.c expects of archives built from asset
# maps and directories, and writes the tar and zip files those archives
# nest (tests/data/nested.tar, tests/data/nested.zip).
#
# The engine hashes such an archive as the SHA-256 of the tar stream Go's
# archive/tar writer makes of its members, each header holding only the
# name, mode 0600 and the size.  Python's tarfile writes the same USTAR
# header bytes when told the same fields (mtime 0, uid and gid 0, empty
# user and group names, regular files) for names it does not split or
# splits at the only possible place, with two differences, undone here:
# Go writes the device numbers of every header as "0000000\0" where tarfile
# leaves them empty for regular files (so they are set and the checksum
# recomputed), and tarfile pads the stream to 10240 bytes after the two
# closing zero blocks, where Go stops (so the stream is cut there).  For a
# name that is not ASCII, Go writes a PAX record in its own layout, which
# tarfile does not reproduce: that stream is assembled here byte by byte
# from the layout of Go's writePAXHeader.
#
# Usage: python3 tests/data/archive-hashes.py   (from the repository root)
import hashlib
import io
import tarfile
import zipfile


def go_tar(members):
    """SHA-256 hex of Go's tar stream of [(name, bytes)] (ASCII names)."""
    buf = io.BytesIO()
    tf = tarfile.open(fileobj=buf, mode="w", format=tarfile.USTAR_FORMAT)
    headers = []
    for name, data in members:
        ti = tarfile.TarInfo(name)
        ti.size, ti.mode, ti.mtime, ti.type = len(data), 0o600, 0, tarfile.REGTYPE
        ti.uid = ti.gid = 0
        ti.uname = ti.gname = ""
        headers.append(tf.offset)
        tf.addfile(ti, io.BytesIO(data))
    end = tf.offset + 2 * 512
    tf.close()
    stream = bytearray(buf.getvalue()[:end])
    for off in headers:
        h = stream[off:off + 512]
        h[329:337] = octal(0, 8)
        h[337:345] = octal(0, 8)
        stream[off:off + 512] = checksummed(h)
    return hashlib.sha256(stream).hexdigest()


def octal(n, width):
    return b"%0*o" % (width - 1, n) + b"\0"


def checksummed(h):
    """The header block h with its checksum set as Go's setFormat sets it:
    six octal digits, a NUL and a space, counting the field as spaces."""
    h[148:156] = b" " * 8
    h[148:156] = b"%06o\0 " % sum(h)
    return bytes(h)


def block(name, typeflag, size, mode, devices):
    """One header block as Go's templateV7Plus and setFormat lay it out."""
    h = bytearray(512)
    h[0:len(name)] = name
    h[100:108] = octal(mode, 8)
    h[108:116] = octal(0, 8)
    h[116:124] = octal(0, 8)
    h[124:136] = octal(size, 12)
    h[136:148] = octal(0, 12)
    h[156:157] = typeflag
    h[257:265] = b"ustar\x0000"
    if devices:
        h[329:337] = octal(0, 8)
        h[337:345] = octal(0, 8)
    return checksummed(h)


def padded(data):
    return data + b"\0" * (-len(data) % 512)


def go_tar_pax(name, data):
    """SHA-256 hex of Go's tar stream of one member whose name is not
    ASCII: a PAX extended header 'x' named PaxHeaders.0/<name without its
    non-ASCII bytes> holding "<n> path=<name>\\n", then the USTAR-form
    header of the file with the same ASCII-only name."""
    raw = name.encode()
    ascii_name = bytes(c for c in raw if c < 0x80)
    body = b" path=" + raw + b"\n"
    n = len(body) + len(str(len(body)))
    if len(str(n)) + len(body) != n:
        n += 1
    record = str(n).encode() + body
    stream = block(b"PaxHeaders.0/" + ascii_name, b"x", len(record), 0, False)
    stream += padded(record)
    stream += block(ascii_name, b"0", len(data), 0o600, True) + padded(data)
    stream += b"\0" * 1024
    return hashlib.sha256(stream).hexdigest()


def write_nested():
    """tests/data/nested.tar and nested.zip: a directory entry, which
    archives skip, and two files."""
    with tarfile.open("tests/data/nested.tar", "w", format=tarfile.USTAR_FORMAT) as tf:
        for name, data in [("inner/", None), ("inner/t.txt", b"tar\n"), ("z.txt", b"z\n")]:
            ti = tarfile.TarInfo(name)
            ti.mtime = 0
            if data is None:
                ti.type, ti.mode = tarfile.DIRTYPE, 0o755
                tf.addfile(ti)
            else:
                ti.size, ti.mode = len(data), 0o644
                tf.addfile(ti, io.BytesIO(data))
    with zipfile.ZipFile("tests/data/nested.zip", "w") as zf:
        for name, data in [("inner/", b""), ("inner/z.txt", b"zip\n"), ("a.txt", b"za\n")]:
            zf.writestr(zipfile.ZipInfo(name, (1980, 1, 1, 0, 0, 0)), data)


write_nested()
long_dir = "d" * 60
long_file = "f" * 70 + ".txt"
cases = {
    "empty": go_tar([]),
    "two strings": go_tar([("a.txt", b"hello"), ("b.txt", b"bee")]),
    "nested and cleaned": go_tar([("up.txt", b"up"), ("dir/x.txt", b"x"),
                                  ("dir-a.txt", b"dash")]),
    "first of a name wins": go_tar([("a/x", b"1")]),
    "directory": go_tar([("a.txt", b"a\n"), ("b/c.txt", b"c\n"), ("b-d.txt", b"d\n")]),
    "directory nested": go_tar([("d/a.txt", b"a\n"), ("d/b/c.txt", b"c\n"),
                                ("d/b-d.txt", b"d\n"), ("file", b"a\n")]),
    "tar and zip nested": go_tar([("t/inner/t.txt", b"tar\n"), ("t/z.txt", b"z\n"),
                                  ("z/inner/z.txt", b"zip\n"), ("z/a.txt", b"za\n")]),
    "long name split": go_tar([(long_dir + "/" + long_file, b"long")]),
    "body of a block": go_tar([("block", b"b" * 512), ("next", b"")]),
    "name not ASCII": go_tar_pax("caf\u00e9.txt", "caf\u00e9".encode()),
}
for k, v in cases.items():
    print(f"{k}: {v}")
