"""A bounded read cursor over one fenced event body (the pure-Python reads of the framing layer).

Every read is checked against the fence (the event body with its CRC stripped) before it happens,
and a failed check raises a typed error carrying the absolute byte offset in the file
(``base`` + index), never an IndexError/struct.error. Integers are little-endian throughout, as the
server's ``uint2korr``/``uint4korr``/``uint8korr`` (include/my_byteorder.h) read them.
"""

from __future__ import annotations

from ...errors import CorruptEventError, TruncatedError


class Cursor:
    """Reads ``buf[pos:end]``; ``base`` is the absolute file offset of ``buf[0]`` (for errors).

    ``buf`` may be bytes or a memoryview; slices returned by :meth:`take` are ``bytes``.
    """

    __slots__ = ("buf", "pos", "end", "base")

    def __init__(self, buf, pos: int = 0, end: int | None = None, base: int = 0):
        self.buf = buf
        self.pos = pos
        self.end = len(buf) if end is None else end
        self.base = base

    # -- bookkeeping -------------------------------------------------------------------------
    @property
    def remaining(self) -> int:
        return self.end - self.pos

    def abs(self, pos: int | None = None) -> int:
        """Absolute file offset of ``pos`` (default: the current position)."""
        return self.base + (self.pos if pos is None else pos)

    def need(self, n: int, what: str) -> None:
        if n < 0 or self.end - self.pos < n:
            avail = self.end - self.pos
            raise TruncatedError(f"{what}: needs {n} bytes, {avail} remain in the event body",
                                 needed=n, available=avail, offset=self.abs())

    def corrupt(self, message: str, pos: int | None = None) -> CorruptEventError:
        return CorruptEventError(message, offset=self.abs(pos))

    def expect_end(self, what: str) -> None:
        """STYLE 9: a body must be consumed exactly; leftover bytes are an error, not skipped."""
        if self.pos != self.end:
            raise CorruptEventError(f"{what}: {self.end - self.pos} unexpected bytes left at the end",
                                    offset=self.abs())

    def sub(self, n: int, what: str) -> Cursor:
        """A cursor fenced to the next ``n`` bytes (advancing this one past them)."""
        self.need(n, what)
        c = Cursor(self.buf, self.pos, self.pos + n, self.base)
        self.pos += n
        return c

    # -- fixed-width little-endian integers ----------------------------------------------------
    def u8(self, what: str = "1-byte integer") -> int:
        self.need(1, what)
        v = self.buf[self.pos]
        self.pos += 1
        return v

    def uint(self, n: int, what: str = "integer") -> int:
        self.need(n, what)
        v = int.from_bytes(self.buf[self.pos:self.pos + n], "little")
        self.pos += n
        return v

    def u16(self, what: str = "2-byte integer") -> int:
        return self.uint(2, what)

    def u32(self, what: str = "4-byte integer") -> int:
        return self.uint(4, what)

    def u64(self, what: str = "8-byte integer") -> int:
        return self.uint(8, what)

    def i64(self, what: str = "8-byte integer") -> int:
        self.need(8, what)
        v = int.from_bytes(self.buf[self.pos:self.pos + 8], "little", signed=True)
        self.pos += 8
        return v

    def uint_be(self, n: int, what: str = "big-endian integer") -> int:
        self.need(n, what)
        v = int.from_bytes(self.buf[self.pos:self.pos + n], "big")
        self.pos += n
        return v

    # -- variable-width ------------------------------------------------------------------------
    def lenenc(self, what: str = "length-encoded integer") -> int:
        """sql-common/pack.cc ``net_field_length_ll``: <251 is the value; 252/253/254 prefix a
        2/3/8-byte value. 251 (NULL) and 255 are not valid where a length or count is expected."""
        first = self.u8(what)
        if first < 251:
            return first
        width = {252: 2, 253: 3, 254: 8}.get(first)
        if width is None:
            raise self.corrupt(f"{what}: invalid length-encoded integer prefix 0x{first:02x}",
                               self.pos - 1)
        return self.uint(width, what)

    def take(self, n: int, what: str = "bytes") -> bytes:
        self.need(n, what)
        v = bytes(self.buf[self.pos:self.pos + n])
        self.pos += n
        return v

    def rest(self) -> bytes:
        v = bytes(self.buf[self.pos:self.end])
        self.pos = self.end
        return v

    def cstr(self, what: str = "NUL-terminated string") -> bytes:
        """Bytes up to (not including) a NUL, consuming the NUL."""
        # bytes.find on a memoryview needs a bytes object; search the fenced window only.
        window = bytes(self.buf[self.pos:self.end])
        i = window.find(b"\0")
        if i < 0:
            raise TruncatedError(f"{what}: no terminating NUL in the {len(window)} remaining bytes",
                                 needed=len(window) + 1, available=len(window), offset=self.abs())
        self.pos += i + 1
        return window[:i]

    def lenenc_bytes(self, what: str = "length-prefixed string") -> bytes:
        n = self.lenenc(what + " length")
        return self.take(n, what)

    def varlen(self, what: str = "variable-length integer") -> int:
        """mysql::serialization varlen unsigned integer (libs/mysql/serialization/
        variable_length_integers.h ``read_varlen_bytes_unsigned``)::

            first byte: [ value bits | 0 | 1...1 ]   k trailing ones => k+1 bytes in all
                          (LSB first)     k ones     9 bytes when the first byte is 0xff

        the remaining k bytes hold the higher bits, little-endian.
        """
        first = self.u8(what)
        k = 0
        while k < 8 and (first >> k) & 1:
            k += 1
        nbytes = k + 1
        if nbytes == 1:
            return first >> 1
        rest = self.uint(nbytes - 1, what)
        if nbytes == 9:
            return rest
        return (first >> nbytes) | (rest << (8 - nbytes))

    def varlen_signed(self, what: str = "variable-length integer") -> int:
        """Signed form: the sign is the least significant bit (x>=0: x<<1; x<0: (-(x+1)<<1)|1)."""
        u = self.varlen(what)
        return -(u >> 1) - 1 if u & 1 else u >> 1
